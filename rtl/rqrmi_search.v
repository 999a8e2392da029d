`include "rqrmi_defines.vh"

// The secondary search in hardware: for a prediction (index i, error e) it finds, in the range
// array window [i - e, i + e], the last range starting at or before the key by binary search,
// then checks the key against that range's end. It reads the array through a memory request
// port with one read in flight: mem_req pulses for a cycle with mem_addr, and the read's data
// arrives with mem_resp (any number of cycles later). The ranges visited, and their order, are
// those of rqrmi_search() in firmware/ml/rqrmi.c.
module rqrmi_search (
    input wire clk,
    input wire rst,
    input wire [24:0] range_count,
    input wire [31:0] range_base,
    // The oldest queued prediction; taken in a cycle with `take` high.
    input wire pending,
    input wire [31:0] key,
    input wire [23:0] index,
    input wire [31:0] error,
    output wire take,
    // Memory request port.
    output reg mem_req,
    output reg [31:0] mem_addr,
    input wire mem_resp,
    input wire [31:0] mem_rdata,
    input wire mem_error,
    // A result, valid for the one cycle `done` is high; bus_error with it when a read failed.
    output reg done,
    output reg [31:0] result,
    output reg bus_error
);
  localparam [1:0] IDLE = 2'd0, STEP = 2'd1, WAIT_LO = 2'd2, WAIT_HI = 2'd3;

  reg [1:0] state;
  reg [31:0] search_key;
  reg [24:0] first;
  reg [24:0] low;   // ranges before `low` start at or before the key
  reg [24:0] high;  // ranges from `high` on start after it
  reg [24:0] middle;

  assign take = state == IDLE && pending;

  // The window, clipped to the array.
  wire [32:0] index_wide = {9'd0, index};
  wire [32:0] room = {8'd0, range_count} - 33'd1 - index_wide;
  wire [24:0] window_first = {1'b0, index} > error[24:0] && error[31:25] == 0
                             ? {1'b0, index} - error[24:0] : 25'd0;
  wire [24:0] window_end = {1'b0, error} < room ? {1'b0, index} + error[24:0] + 25'd1
                                                 : range_count;
  wire [24:0] next_middle = low + ((high - low) >> 1);
  wire [24:0] last_start = low - 25'd1;  // the last range starting at or before the key

  function automatic [31:0] range_word(input [23:0] range, input high_word);
    range_word = range_base + {5'd0, range, 3'b000} + (high_word ? 32'd4 : 32'd0);
  endfunction

  always @(posedge clk) begin
    mem_req <= 1'b0;
    done <= 1'b0;
    bus_error <= 1'b0;
    if (rst) begin
      state <= IDLE;
    end else begin
      case (state)
        IDLE:
        if (pending) begin
          search_key <= key;
          first <= window_first;
          low <= window_first;
          high <= window_end;
          state <= STEP;
        end
        STEP:
        if (low < high) begin
          middle <= next_middle;
          mem_req <= 1'b1;
          mem_addr <= range_word(next_middle[23:0], 1'b0);
          state <= WAIT_LO;
        end else if (low == first) begin
          result <= `RQRMI_NONE;
          done <= 1'b1;
          state <= IDLE;
        end else begin
          mem_req <= 1'b1;
          mem_addr <= range_word(last_start[23:0], 1'b1);
          state <= WAIT_HI;
        end
        WAIT_LO:
        if (mem_resp) begin
          if (mem_error) begin
            result <= `RQRMI_NONE;
            bus_error <= 1'b1;
            done <= 1'b1;
            state <= IDLE;
          end else begin
            if (mem_rdata <= search_key) low <= middle + 25'd1;
            else high <= middle;
            state <= STEP;
          end
        end
        default:  // WAIT_HI
        if (mem_resp) begin
          result <= !mem_error && search_key <= mem_rdata ? {7'd0, last_start} : `RQRMI_NONE;
          bus_error <= mem_error;
          done <= 1'b1;
          state <= IDLE;
        end
      endcase
    end
  end
endmodule
