/* DRAM at MM_DRAM_BASE: loads and stores of each width with sign and zero extension, a block
 * written and read back, misaligned accesses, AMO and LR/SC, and code executed from it. */
#include "isa_test.h"

#define DRAM_BLOCK_WORDS 1024
#define DRAM_CODE_ADDRESS (MM_DRAM_BASE + 0x8000)

  .option norvc
ISA_TEST_BEGIN

  /* each width, at the very base */
  li TESTNUM, 2
  li x11, MM_DRAM_BASE
  li x12, 0x8badf00d
  sw x12, 0(x11)
  lw x14, 0(x11)
  EXPECT x14, 0x8badf00d
  li TESTNUM, 3
  lb x14, 3(x11)
  EXPECT x14, 0xffffff8b
  lbu x14, 3(x11)
  EXPECT x14, 0x8b
  lb x14, 0(x11)
  EXPECT x14, 0x0d
  li TESTNUM, 4
  lh x14, 2(x11)
  EXPECT x14, 0xffff8bad
  lhu x14, 2(x11)
  EXPECT x14, 0x8bad
  lh x14, 0(x11)
  EXPECT x14, 0xfffff00d
  li TESTNUM, 5
  li x12, 0x77
  sb x12, 1(x11)
  li x12, 0x1234
  sh x12, 4(x11)
  lw x14, 0(x11)
  EXPECT x14, 0x8bad770d
  lhu x14, 4(x11)
  EXPECT x14, 0x1234

  /* a block: write a pattern, read it back */
  li TESTNUM, 6
  li x11, MM_DRAM_BASE + 0x1000
  li x13, DRAM_BLOCK_WORDS
  li x12, 0x9e3779b9
  mv x16, x11
1:
  mul x14, x13, x12
  sw x14, 0(x16)
  addi x16, x16, 4
  addi x13, x13, -1
  bnez x13, 1b
  li x13, DRAM_BLOCK_WORDS
  mv x16, x11
2:
  mul x7, x13, x12
  lw x14, 0(x16)
  beq x14, x7, 3f
  j isa_fail
3:
  addi x16, x16, 4
  addi x13, x13, -1
  bnez x13, 2b

  /* misaligned accesses are performed */
  li TESTNUM, 7
  li x11, MM_DRAM_BASE + 0x100
  sw zero, 0(x11)
  sw zero, 4(x11)
  li x12, 0xcafebabe
  sw x12, 3(x11)
  lw x14, 3(x11)
  EXPECT x14, 0xcafebabe
  lw x14, 0(x11)
  EXPECT x14, 0xbe000000
  lw x14, 4(x11)
  EXPECT x14, 0x00cafeba
  lh x14, 5(x11)
  EXPECT x14, 0xffffcafe

  /* AMO and LR/SC */
  li TESTNUM, 8
  li x11, MM_DRAM_BASE + 0x200
  li x12, 40
  sw x12, 0(x11)
  li x12, 2
  amoadd.w x14, x12, (x11)
  EXPECT x14, 40
  lw x14, 0(x11)
  EXPECT x14, 42
  li TESTNUM, 9
  lr.w x14, (x11)
  EXPECT x14, 42
  li x12, 43
  sc.w x15, x12, (x11)
  EXPECT x15, 0
  lw x14, 0(x11)
  EXPECT x14, 43

  /* code in DRAM */
  li TESTNUM, 10
  li x13, DRAM_CODE_ADDRESS
  COPY_WORDS x13, function_template, function_template_end
  fence.i
  li a0, 20
  jalr ra, 0(x13)
  EXPECT a0, 0x20000

  j isa_pass

  /* Position-independent: a0 <<= 12 (a0 = 20 gives 0x14000), then + 0xc000. */
  .balign 4
function_template:
  slli a0, a0, 12
  lui t0, 0xc
  add a0, a0, t0
  jalr x0, 0(ra)
function_template_end:
ISA_TEST_END
