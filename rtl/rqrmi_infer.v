`include "rqrmi_defines.vh"

// The RQRMI inference pipeline: the fixed-point arithmetic of interface/rqrmi_model.h, bit for
// bit as firmware/ml/rqrmi.c computes it.
//
// A token (key, stage, submodel) passes five registered steps per model stage:
//   issue  the submodel's record is read from the weight memory (one row holds a record);
//   E1     x from the key, z_j = b1_j +/- x and h_j = max(z_j, 0) for the eight units;
//   E2     the eight products w2_j * h_j;
//   E3     their sum, scaled and clamped to y in [0, 2^24);
//   E4     y times the next stage's width (the next submodel) or times n (the index).
// After E4 a token either leaves with its prediction or re-enters issue for its next stage;
// a re-entering token has priority over a new key. A key of an S-stage model therefore leaves
// 5 * S cycles after it was taken, and while tokens circulate a new key is taken whenever the
// issue slot is free: in steady state one key every S cycles. Tokens leave in key order.
module rqrmi_infer #(
    parameter integer MAX_SUBMODELS = 256,
    parameter integer ROW_BITS = 8  // addresses MAX_SUBMODELS rows
) (
    input wire clk,
    input wire rst,
    // Model header (checked by the caller before a job starts).
    input wire [2:0] stage_count,
    input wire [16:0] width1,
    input wire [16:0] width2,
    input wire [16:0] width3,
    input wire [24:0] range_count,
    // Weight memory write port: word `wmem_word` of record `wmem_row`.
    input wire wmem_write,
    input wire [ROW_BITS-1:0] wmem_row,
    input wire [4:0] wmem_word,
    input wire [31:0] wmem_data,
    // Keys offered by the caller; taken in a cycle with key_taken high.
    input wire key_valid,
    input wire [31:0] key,
    output wire key_taken,
    // A prediction, valid for the one cycle out_valid is high.
    output wire out_valid,
    output wire [31:0] out_key,
    output wire [23:0] out_index,
    output wire [31:0] out_error
);
  localparam integer WORDS = `RQRMI_SUBMODEL_WORDS;
  localparam integer HIDDEN = `RQRMI_HIDDEN;
  localparam integer X_BITS = `RQRMI_X_BITS;
  localparam integer FRAC = `RQRMI_W2_FRAC_BITS;
  localparam [X_BITS-1:0] X_MAX = {X_BITS{1'b1}};

  // ---- Weight memory: one bank per record word, so a record is read in one cycle ----
  // Pipeline state is kept in packed vectors: only the weight banks are memories.
  wire [32*WORDS-1:0] record;  // the issued token's record, read at issue
  reg [ROW_BITS-1:0] issue_row;

  genvar w;
  generate
    for (w = 0; w < WORDS; w = w + 1) begin : bank
      reg [31:0] words[0:MAX_SUBMODELS-1];
      reg [31:0] read_data;
      always @(posedge clk) begin
        if (wmem_write && wmem_word == w) words[wmem_row] <= wmem_data;
        read_data <= words[issue_row];
      end
      assign record[32*w+:32] = read_data;
    end
  endgenerate

  // ---- Issue ----
  reg r4_valid;
  reg r4_last;
  reg [31:0] r4_key;
  reg [1:0] r4_stage;
  reg [23:0] r4_scaled;
  reg [31:0] r4_error;

  wire recirculate = r4_valid && !r4_last;
  assign key_taken = key_valid && !recirculate;
  wire issue_valid = recirculate || key_valid;
  wire [31:0] issue_key = recirculate ? r4_key : key;
  wire [1:0] issue_stage = recirculate ? r4_stage + 2'd1 : 2'd0;
  wire [16:0] issue_submodel = recirculate ? {1'b0, r4_scaled[15:0]} : 17'd0;

  // Records are stored stage by stage: stage s starts after the widths of the stages before it.
  reg [18:0] stage_base;
  always @(*) begin
    case (issue_stage)
      2'd0: stage_base = 19'd0;
      2'd1: stage_base = 19'd1;
      2'd2: stage_base = 19'd1 + {2'b0, width1};
      default: stage_base = 19'd1 + {2'b0, width1} + {2'b0, width2};
    endcase
  end
  // A job never starts with more records than the memory holds: the row bits suffice.
  /* verilator lint_off UNUSEDSIGNAL */
  wire [18:0] issue_record = stage_base + {2'b0, issue_submodel};
  /* verilator lint_on UNUSEDSIGNAL */
  always @(*) issue_row = issue_record[ROW_BITS-1:0];

  reg r0_valid;
  reg r0_last;
  reg [31:0] r0_key;
  reg [1:0] r0_stage;
  always @(posedge clk) begin
    if (rst) begin
      r0_valid <= 1'b0;
    end else begin
      r0_valid <= issue_valid;
    end
    r0_key <= issue_key;
    r0_stage <= issue_stage;
    r0_last <= {1'b0, issue_stage} == stage_count - 3'd1;
  end

  // ---- E1: input scaling and the hidden layer ----
  wire [31:0] in_lo = record[32*`RQRMI_SUB_IN_LO+:32];
  /* verilator lint_off UNUSEDSIGNAL */
  wire [31:0] config_word = record[32*`RQRMI_SUB_CONFIG+:32];  // bits of in_shift and the signs
  /* verilator lint_on UNUSEDSIGNAL */
  wire [5:0] in_shift = config_word[5:0];
  wire [31:0] distance = r0_key >= in_lo ? r0_key - in_lo : 32'd0;
  wire [55:0] scaled_input = {distance, {X_BITS{1'b0}}} >> in_shift;
  wire [X_BITS-1:0] x = |scaled_input[55:X_BITS] ? X_MAX : scaled_input[X_BITS-1:0];

  reg r1_valid;
  reg r1_last;
  reg [31:0] r1_key;
  reg [1:0] r1_stage;
  reg [31:0] r1_b2;
  reg [31:0] r1_error;
  reg [26*HIDDEN-1:0] r1_h;
  reg [32*HIDDEN-1:0] r1_w2;

  genvar j;
  generate
    for (j = 0; j < HIDDEN; j = j + 1) begin : hidden
      wire [31:0] b1_word = record[32*(`RQRMI_SUB_UNIT0+2*j)+:32];
      wire signed [33:0] b1 = {{2{b1_word[31]}}, b1_word};
      wire signed [33:0] x_signed = {{(34 - X_BITS) {1'b0}}, x};
      wire negative = config_word[`RQRMI_CONFIG_SIGN_SHIFT+j];
      wire signed [33:0] z = negative ? b1 - x_signed : b1 + x_signed;
      always @(posedge clk) begin
        // |b1| <= 2^25 in a valid model, so a positive z is below 2^26.
        r1_h[26*j+:26] <= z > 0 ? z[25:0] : 26'd0;
        r1_w2[32*j+:32] <= record[32*(`RQRMI_SUB_UNIT0+2*j+1)+:32];
      end
    end
  endgenerate

  always @(posedge clk) begin
    if (rst) r1_valid <= 1'b0;
    else r1_valid <= r0_valid;
    r1_last <= r0_last;
    r1_key <= r0_key;
    r1_stage <= r0_stage;
    r1_b2 <= record[32*`RQRMI_SUB_B2+:32];
    r1_error <= record[32*`RQRMI_SUB_ERROR+:32];
  end

  // ---- E2: products ----
  reg r2_valid;
  reg r2_last;
  reg [31:0] r2_key;
  reg [1:0] r2_stage;
  reg [31:0] r2_b2;
  reg [31:0] r2_error;
  reg [58*HIDDEN-1:0] r2_product;

  generate
    for (j = 0; j < HIDDEN; j = j + 1) begin : product
      // s32 times u26: the product fits in 58 bits.
      /* verilator lint_off UNUSEDSIGNAL */
      wire signed [58:0] full = $signed(r1_w2[32*j+:32]) * $signed({1'b0, r1_h[26*j+:26]});
      /* verilator lint_on UNUSEDSIGNAL */
      always @(posedge clk) r2_product[58*j+:58] <= full[57:0];
    end
  endgenerate

  always @(posedge clk) begin
    if (rst) r2_valid <= 1'b0;
    else r2_valid <= r1_valid;
    r2_last <= r1_last;
    r2_key <= r1_key;
    r2_stage <= r1_stage;
    r2_b2 <= r1_b2;
    r2_error <= r1_error;
  end

  // ---- E3: output layer, y = clamp((sum >> 20) + b2) ----
  reg signed [60:0] sum;
  integer k;
  always @(*) begin
    sum = 61'sd0;
    for (k = 0; k < HIDDEN; k = k + 1) begin
      sum = sum + $signed({{3{r2_product[58*k+57]}}, r2_product[58*k+:58]});
    end
  end
  wire signed [41:0] y_unclamped = {{(42 - (61 - FRAC)) {sum[60]}}, sum[60:FRAC]} +
                                   {{10{r2_b2[31]}}, r2_b2};
  wire [X_BITS-1:0] y = y_unclamped < 0 ? {X_BITS{1'b0}}
                      : (y_unclamped > $signed({18'd0, X_MAX}) ? X_MAX : y_unclamped[X_BITS-1:0]);

  reg r3_valid;
  reg r3_last;
  reg [31:0] r3_key;
  reg [1:0] r3_stage;
  reg [31:0] r3_error;
  reg [X_BITS-1:0] r3_y;
  always @(posedge clk) begin
    if (rst) r3_valid <= 1'b0;
    else r3_valid <= r2_valid;
    r3_last <= r2_last;
    r3_key <= r2_key;
    r3_stage <= r2_stage;
    r3_error <= r2_error;
    r3_y <= y;
  end

  // ---- E4: next submodel floor(y * W) or index floor(y * n) ----
  reg [24:0] factor;
  always @(*) begin
    if (r3_last) factor = range_count;
    else begin
      case (r3_stage)
        2'd0: factor = {8'd0, width1};
        2'd1: factor = {8'd0, width2};
        default: factor = {8'd0, width3};
      endcase
    end
  end
  // y < 2^24 and factor <= 2^24: the scaled value is bits 47:24, below 2^24.
  /* verilator lint_off UNUSEDSIGNAL */
  wire [48:0] scaled_output = r3_y * factor;
  /* verilator lint_on UNUSEDSIGNAL */

  always @(posedge clk) begin
    if (rst) r4_valid <= 1'b0;
    else r4_valid <= r3_valid;
    r4_last <= r3_last;
    r4_key <= r3_key;
    r4_stage <= r3_stage;
    r4_error <= r3_error;
    r4_scaled <= scaled_output[47:X_BITS];
  end

  assign out_valid = r4_valid && r4_last;
  assign out_key = r4_key;
  assign out_index = r4_scaled;
  assign out_error = r4_error;
endmodule
