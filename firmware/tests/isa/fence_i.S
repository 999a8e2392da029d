/* Zifencei and executable data memories: code copied into SRAM runs after fence.i, and runs
 * its new version after being patched and fence.i again; the same in DRAM. */
#include "isa_test.h"

/* Offset of the code copy into DRAM: clear of the base, which dram.S exercises. */
#define DRAM_CODE_ADDRESS (MM_DRAM_BASE + 0x2000)

  .option norvc
ISA_TEST_BEGIN

  /* SRAM: copy, fence.i, call */
  li TESTNUM, 2
  la x13, sram_code
  COPY_WORDS x13, function_template, function_template_end
  fence.i
  li a0, 5
  jalr ra, 0(x13)
  EXPECT a0, 42

  /* patch the first instruction, fence.i, call the new version */
  li TESTNUM, 3
  la x11, patched_instruction
  lw x14, 0(x11)
  sw x14, 0(x13)
  fence.i
  li a0, 5
  jalr ra, 0(x13)
  EXPECT a0, 105

  /* patch back: the first version runs again */
  li TESTNUM, 4
  la x11, function_template
  lw x14, 0(x11)
  sw x14, 0(x13)
  fence.i
  li a0, 5
  jalr ra, 0(x13)
  EXPECT a0, 42

  /* DRAM: the same */
  li TESTNUM, 5
  li x13, DRAM_CODE_ADDRESS
  COPY_WORDS x13, function_template, function_template_end
  fence.i
  li a0, 5
  jalr ra, 0(x13)
  EXPECT a0, 42
  li TESTNUM, 6
  la x11, patched_instruction
  lw x14, 0(x11)
  sw x14, 0(x13)
  fence.i
  li a0, 5
  jalr ra, 0(x13)
  EXPECT a0, 105

  j isa_pass

  /* Position-independent: a0 = (a0 + 9) * 3, 42 for a0 = 5; with the patch (a0 + 30) * 3 = 105. */
  .balign 4
function_template:
  addi a0, a0, 9
  slli t0, a0, 1
  add a0, a0, t0
  jalr x0, 0(ra)
function_template_end:
patched_instruction:
  addi a0, a0, 30
ISA_TEST_END

  .bss
  .balign 4
sram_code:
  .space 64
