`include "rqrmi_defines.vh"

// The RQRMI accelerator: the registers of interface/accel_regs.h, the key and result FIFOs, the
// inference pipeline (rqrmi_infer) and the secondary search (rqrmi_search).
//
// Register port: an access lasts one clock cycle. bus_rdata is valid during a cycle with
// bus_read high; a read's side effect (popping ACCEL_RESULT) and a write take effect at the
// clock edge that ends the cycle.
//
// A job runs from ACCEL_START until every key queued has its result. Keys enter the pipeline
// only while the result FIFO has room for every key in flight (in the pipeline, the prediction
// queue or the search), so results never wait: when the result FIFO is full with keys still
// queued the job stalls until software pops results. Sizes are built for the maxima of
// interface/accel_regs.h; the straps set the configured capacities.
module rqrmi_accel #(
    parameter integer MAX_SUBMODELS = `ACCEL_MAX_SUBMODELS,
    parameter integer MAX_DEPTH = `ACCEL_MAX_FIFO_DEPTH
) (
    input wire clk,
    input wire rst,
    // Straps: configured sizes, 1 .. the maxima.
    input wire [ROW_BITS:0] submodel_capacity,
    input wire [LEVEL_BITS-1:0] key_depth,
    input wire [LEVEL_BITS-1:0] result_depth,
    // Register port.
    input wire bus_read,
    input wire bus_write,
    input wire [7:0] bus_addr,
    input wire [31:0] bus_wdata,
    output reg [31:0] bus_rdata,
    // Memory request port of the search (rqrmi_search).
    output wire mem_req,
    output wire [31:0] mem_addr,
    input wire mem_resp,
    input wire [31:0] mem_rdata,
    input wire mem_error,
    // Interrupt line and activity, for the SoC and the waveform.
    output wire irq,
    output wire busy,
    output wire stalled,
    output wire [LEVEL_BITS-1:0] key_level,
    output wire [LEVEL_BITS-1:0] result_level
);
  localparam integer ROW_BITS = $clog2(MAX_SUBMODELS);
  localparam integer LEVEL_BITS = $clog2(MAX_DEPTH + 1);
  localparam [31:0] MAX_RANGES = `RQRMI_MAX_RANGES;
  localparam [31:0] MAX_WIDTH = `RQRMI_MAX_STAGE_WIDTH;

  // ---- Registers ----
  reg [1:0] ctrl;
  reg irq_done;
  reg [4:0] errors;
  reg [31:0] range_count;
  reg [31:0] stage_count;
  reg [31:0] width[0:3];
  reg [ROW_BITS-1:0] wmem_row;
  reg [4:0] wmem_word;
  reg [31:0] range_base;
  reg [31:0] result_error;
  reg [31:0] busy_cycles;
  reg run;
  reg job_search;
  reg [LEVEL_BITS-1:0] outstanding;  // keys taken whose result is not in the result FIFO yet

  wire write = bus_write;
  wire read = bus_read;
  wire [7:0] addr = bus_addr;

  // ---- The model header the hardware can run ----
  wire stages_ok = stage_count >= 1 && stage_count <= `RQRMI_MAX_STAGES;
  wire [2:0] stages = stage_count[2:0];
  function automatic width_ok(input [31:0] value);
    width_ok = value >= 1 && value <= MAX_WIDTH;
  endfunction
  wire widths_ok = width[0] == 1 && (stages < 2 || width_ok(width[1])) &&
                   (stages < 3 || width_ok(width[2])) && (stages < 4 || width_ok(width[3]));
  wire [18:0] records = 19'd1 + (stages >= 2 ? width[1][18:0] : 19'd0) +
                        (stages >= 3 ? width[2][18:0] : 19'd0) +
                        (stages >= 4 ? width[3][18:0] : 19'd0);
  wire config_ok = stages_ok && widths_ok && range_count >= 1 && range_count <= MAX_RANGES &&
                   records <= {{(18 - ROW_BITS) {1'b0}}, submodel_capacity};

  // ---- FIFOs ----
  wire key_full;
  wire key_empty;
  wire [31:0] key_head;
  wire key_taken;
  wire key_push = write && addr == `ACCEL_KEY;
  rqrmi_fifo #(
      .WIDTH(32),
      .DEPTH(MAX_DEPTH),
      .LEVEL_BITS(LEVEL_BITS)
  ) keys (
      .clk(clk),
      .rst(rst),
      .limit(key_depth),
      .push(key_push),
      .push_data(bus_wdata),
      .pop(key_taken),
      .head(key_head),
      .level(key_level),
      .full(key_full),
      .empty(key_empty)
  );

  wire result_full;
  wire result_empty;
  wire [63:0] result_head;
  wire result_push;
  wire [63:0] result_data;
  wire result_pop = read && addr == `ACCEL_RESULT;
  rqrmi_fifo #(
      .WIDTH(64),
      .DEPTH(MAX_DEPTH),
      .LEVEL_BITS(LEVEL_BITS)
  ) results (
      .clk(clk),
      .rst(rst),
      .limit(result_depth),
      .push(result_push),
      .push_data(result_data),
      .pop(result_pop),
      .head(result_head),
      .level(result_level),
      .full(result_full),
      .empty(result_empty)
  );

  // ---- Inference ----
  wire [LEVEL_BITS:0] committed = {1'b0, outstanding} + {1'b0, result_level};
  wire credit = committed < {1'b0, result_depth};
  wire predicted;
  wire [31:0] predicted_key;
  wire [23:0] predicted_index;
  wire [31:0] predicted_error;
  rqrmi_infer #(
      .MAX_SUBMODELS(MAX_SUBMODELS),
      .ROW_BITS(ROW_BITS)
  ) infer (
      .clk(clk),
      .rst(rst),
      .stage_count(stages),
      .width1(width[1][16:0]),
      .width2(width[2][16:0]),
      .width3(width[3][16:0]),
      .range_count(range_count[24:0]),
      .wmem_write(write && addr == `ACCEL_WMEM_DATA && wmem_word < `RQRMI_SUBMODEL_WORDS &&
                  {1'b0, wmem_row} < submodel_capacity),
      .wmem_row(wmem_row),
      .wmem_word(wmem_word),
      .wmem_data(bus_wdata),
      .key_valid(run && !key_empty && credit),
      .key(key_head),
      .key_taken(key_taken),
      .out_valid(predicted),
      .out_key(predicted_key),
      .out_index(predicted_index),
      .out_error(predicted_error)
  );

  // ---- Search: predictions queue up in front of it ----
  wire queue_empty;
  wire [87:0] queue_head;
  wire search_take;
  wire searched;
  wire [31:0] search_result;
  wire search_bus_error;
  /* verilator lint_off PINCONNECTEMPTY */
  rqrmi_fifo #(
      .WIDTH(88),
      .DEPTH(MAX_DEPTH),
      .LEVEL_BITS(LEVEL_BITS)
  ) predictions (
      .clk(clk),
      .rst(rst),
      .limit(MAX_DEPTH[LEVEL_BITS-1:0]),
      .push(predicted && job_search),
      .push_data({predicted_key, predicted_index, predicted_error}),
      .pop(search_take),
      .head(queue_head),
      .level(),
      .full(),
      .empty(queue_empty)
  );
  /* verilator lint_on PINCONNECTEMPTY */
  rqrmi_search search (
      .clk(clk),
      .rst(rst),
      .range_count(range_count[24:0]),
      .range_base(range_base),
      .pending(!queue_empty),
      .key(queue_head[87:56]),
      .index(queue_head[55:32]),
      .error(queue_head[31:0]),
      .take(search_take),
      .mem_req(mem_req),
      .mem_addr(mem_addr),
      .mem_resp(mem_resp),
      .mem_rdata(mem_rdata),
      .mem_error(mem_error),
      .done(searched),
      .result(search_result),
      .bus_error(search_bus_error)
  );

  assign result_push = job_search ? searched : predicted;
  assign result_data = job_search ? {32'd0, search_result}
                                  : {predicted_error, 8'd0, predicted_index};

  // ---- Control ----
  assign busy = run;
  assign stalled = run && !key_empty && outstanding == 0 && result_full;
  assign irq = irq_done && ctrl[1];
  wire job_done = run && key_empty && outstanding == 0;
  wire start = write && addr == `ACCEL_START && !run;

  // Sticky errors raised this cycle.
  wire [4:0] raised = (start && !config_ok ? `ACCEL_ERROR_CONFIG : 5'd0) |
                      (key_push && key_full ? `ACCEL_ERROR_KEY_OVERFLOW : 5'd0) |
                      (result_pop && result_empty ? `ACCEL_ERROR_RESULT_UNDERFLOW : 5'd0) |
                      (searched && search_bus_error ? `ACCEL_ERROR_BUS : 5'd0) |
                      (write && addr == `ACCEL_WMEM_DATA &&
                       (wmem_word >= `RQRMI_SUBMODEL_WORDS || {1'b0, wmem_row} >= submodel_capacity)
                       ? `ACCEL_ERROR_WMEM_RANGE : 5'd0);
  wire [4:0] cleared = write && addr == `ACCEL_ERRORS ? bus_wdata[4:0] : 5'd0;

  always @(posedge clk) begin
    if (rst) begin
      ctrl <= 2'd0;
      irq_done <= 1'b0;
      errors <= 5'd0;
      range_count <= 32'd0;
      stage_count <= 32'd0;
      width[0] <= 32'd0;
      width[1] <= 32'd0;
      width[2] <= 32'd0;
      width[3] <= 32'd0;
      wmem_row <= 0;
      wmem_word <= 5'd0;
      range_base <= 32'd0;
      result_error <= 32'd0;
      busy_cycles <= 32'd0;
      run <= 1'b0;
      job_search <= 1'b0;
      outstanding <= 0;
    end else begin
      if (run) busy_cycles <= busy_cycles + 32'd1;
      if (key_taken && !result_push) outstanding <= outstanding + 1'b1;
      else if (result_push && !key_taken) outstanding <= outstanding - 1'b1;
      errors <= (errors & ~cleared) | raised;
      if (job_done || (start && !config_ok)) irq_done <= 1'b1;
      if (job_done) run <= 1'b0;
      if (start && config_ok) begin
        run <= 1'b1;
        job_search <= ctrl[0];
      end

      if (write) begin
        case (addr)
          `ACCEL_CTRL: ctrl <= bus_wdata[1:0];
          `ACCEL_IRQ: if ((bus_wdata & `ACCEL_IRQ_DONE) != 0) irq_done <= 1'b0;
          `ACCEL_RANGE_COUNT: range_count <= bus_wdata;
          `ACCEL_STAGE_COUNT: stage_count <= bus_wdata;
          `ACCEL_STAGE_WIDTH0: width[0] <= bus_wdata;
          `ACCEL_STAGE_WIDTH0 + 4: width[1] <= bus_wdata;
          `ACCEL_STAGE_WIDTH0 + 8: width[2] <= bus_wdata;
          `ACCEL_STAGE_WIDTH0 + 12: width[3] <= bus_wdata;
          `ACCEL_WMEM_ADDR: begin
            wmem_row <= bus_wdata[`ACCEL_WMEM_SUBMODEL_SHIFT+ROW_BITS-1:`ACCEL_WMEM_SUBMODEL_SHIFT];
            wmem_word <= bus_wdata[4:0];
          end
          `ACCEL_WMEM_DATA: begin
            if (wmem_word == `RQRMI_SUBMODEL_WORDS - 1) begin
              wmem_row <= wmem_row + 1'b1;
              wmem_word <= 5'd0;
            end else begin
              wmem_word <= wmem_word + 5'd1;
            end
          end
          `ACCEL_RANGE_BASE: range_base <= bus_wdata;
          default: ;
        endcase
      end
      if (result_pop && !result_empty) result_error <= result_head[63:32];
    end
  end

  always @(*) begin
    case (addr)
      `ACCEL_ID: bus_rdata = `ACCEL_ID_VALUE;
      `ACCEL_CTRL: bus_rdata = {30'd0, ctrl};
      `ACCEL_STATUS: bus_rdata = {30'd0, stalled, busy};
      `ACCEL_IRQ: bus_rdata = {31'd0, irq_done};
      `ACCEL_ERRORS: bus_rdata = {27'd0, errors};
      `ACCEL_RANGE_COUNT: bus_rdata = range_count;
      `ACCEL_STAGE_COUNT: bus_rdata = stage_count;
      `ACCEL_STAGE_WIDTH0: bus_rdata = width[0];
      `ACCEL_STAGE_WIDTH0 + 4: bus_rdata = width[1];
      `ACCEL_STAGE_WIDTH0 + 8: bus_rdata = width[2];
      `ACCEL_STAGE_WIDTH0 + 12: bus_rdata = width[3];
      `ACCEL_WMEM_ADDR:
      bus_rdata = {{(32 - `ACCEL_WMEM_SUBMODEL_SHIFT - ROW_BITS) {1'b0}}, wmem_row, wmem_word};
      `ACCEL_RANGE_BASE: bus_rdata = range_base;
      `ACCEL_RESULT: bus_rdata = result_empty ? `RQRMI_NONE : result_head[31:0];
      `ACCEL_RESULT_ERROR: bus_rdata = result_error;
      `ACCEL_KEY_LEVEL: bus_rdata = {{(32 - LEVEL_BITS) {1'b0}}, key_level};
      `ACCEL_RESULT_LEVEL: bus_rdata = {{(32 - LEVEL_BITS) {1'b0}}, result_level};
      `ACCEL_BUSY_CYCLES: bus_rdata = busy_cycles;
      `ACCEL_SUBMODEL_CAPACITY: bus_rdata = {{(31 - ROW_BITS) {1'b0}}, submodel_capacity};
      `ACCEL_KEY_DEPTH: bus_rdata = {{(32 - LEVEL_BITS) {1'b0}}, key_depth};
      `ACCEL_RESULT_DEPTH: bus_rdata = {{(32 - LEVEL_BITS) {1'b0}}, result_depth};
      default: bus_rdata = 32'd0;
    endcase
  end
endmodule
