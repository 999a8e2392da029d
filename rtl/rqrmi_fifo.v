// A synchronous FIFO of DEPTH entries (a power of two) of which `limit` are usable: the hardware
// is built for the largest depth and the SoC straps the configured one. Writes to a full FIFO
// and reads of an empty one are ignored. The head is readable in the same cycle.
module rqrmi_fifo #(
    parameter integer WIDTH = 32,
    parameter integer DEPTH = 64,
    parameter integer LEVEL_BITS = 7  // holds DEPTH
) (
    input wire clk,
    input wire rst,
    input wire [LEVEL_BITS-1:0] limit,
    input wire push,
    input wire [WIDTH-1:0] push_data,
    input wire pop,
    output wire [WIDTH-1:0] head,
    output reg [LEVEL_BITS-1:0] level,
    output wire full,
    output wire empty
);
  localparam integer INDEX_BITS = $clog2(DEPTH);

  reg [WIDTH-1:0] slots[0:DEPTH-1];
  reg [INDEX_BITS-1:0] read_at;
  reg [INDEX_BITS-1:0] write_at;

  assign full = level >= limit;
  assign empty = level == 0;
  assign head = slots[read_at];

  wire pushed = push && !full;
  wire popped = pop && !empty;

  always @(posedge clk) begin
    if (pushed) slots[write_at] <= push_data;
  end

  always @(posedge clk) begin
    if (rst) begin
      read_at <= 0;
      write_at <= 0;
      level <= 0;
    end else begin
      if (pushed) write_at <= write_at + 1'b1;
      if (popped) read_at <= read_at + 1'b1;
      if (pushed && !popped) level <= level + 1'b1;
      else if (popped && !pushed) level <= level - 1'b1;
    end
  end
endmodule
