// The test encoder against GNU as: every row's reference bits come from assembling the text with
// riscv64-unknown-elf-as -march=rv32imac_zicsr_zifencei (objdump -M no-aliases), so the other
// tests' programs mean what they say.
#include <gtest/gtest.h>

#include <cstdint>

#include "tb/tests/cpu/encoder.h"

namespace ssdvp::cpu::test {
namespace {

using namespace enc;

struct Row {
  const char* assembly;
  uint32_t encoded;
  uint32_t gnu_as;
};

const Row kRows[] = {
    {"lui a0,0x12345", lui(a0, 0x12345), 0x12345537},
    {"auipc a1,0xfffff", auipc(a1, 0xfffff), 0xfffff597},
    {"jal ra,.+2048", jal(ra, 2048), 0x001000ef},
    {"jal zero,.-1048576", jal(zero, -1048576), 0x8000006f},
    {"jal t0,.+0xffffe", jal(t0, 0xffffe), 0x7ffff2ef},
    {"jalr a1,-4(a0)", jalr(a1, a0, -4), 0xffc505e7},
    {"beq a0,a1,.-4096", beq(a0, a1, -4096), 0x80b50063},
    {"bne a0,a1,.+4094", bne(a0, a1, 4094), 0x7eb51fe3},
    {"blt t0,t1,.+2048", blt(t0, t1, 2048), 0x0062c0e3},
    {"bge t0,t1,.-2", bge(t0, t1, -2), 0xfe62dfe3},
    {"bltu s0,s1,.+16", bltu(s0, s1, 16), 0x00946863},
    {"bgeu s0,s1,.+2050", bgeu(s0, s1, 2050), 0x009471e3},
    {"lb a0,-2048(sp)", lb(a0, sp, -2048), 0x80010503},
    {"lh a0,2047(sp)", lh(a0, sp, 2047), 0x7ff11503},
    {"lw a0,8(sp)", lw(a0, sp, 8), 0x00812503},
    {"lbu a0,-1(a1)", lbu(a0, a1, -1), 0xfff5c503},
    {"lhu a0,2(a1)", lhu(a0, a1, 2), 0x0025d503},
    {"sb a1,-1(a0)", sb(a1, a0, -1), 0xfeb50fa3},
    {"sh a1,-2048(a0)", sh(a1, a0, -2048), 0x80b51023},
    {"sw a1,2047(a0)", sw(a1, a0, 2047), 0x7eb52fa3},
    {"addi a0,a1,-2048", addi(a0, a1, -2048), 0x80058513},
    {"slti a0,a1,5", slti(a0, a1, 5), 0x0055a513},
    {"sltiu a0,a1,-1", sltiu(a0, a1, -1), 0xfff5b513},
    {"xori a0,a1,0x555", xori(a0, a1, 0x555), 0x5555c513},
    {"ori a0,a1,-7", ori(a0, a1, -7), 0xff95e513},
    {"andi a0,a1,7", andi(a0, a1, 7), 0x0075f513},
    {"slli a0,a1,31", slli(a0, a1, 31), 0x01f59513},
    {"srli a0,a1,1", srli(a0, a1, 1), 0x0015d513},
    {"srai a0,a1,17", srai(a0, a1, 17), 0x4115d513},
    {"add a0,a1,a2", add(a0, a1, a2), 0x00c58533},
    {"sub t3,t4,t5", sub(t3, t4, t5), 0x41ee8e33},
    {"sll a0,a1,a2", sll(a0, a1, a2), 0x00c59533},
    {"slt a0,a1,a2", slt(a0, a1, a2), 0x00c5a533},
    {"sltu a0,a1,a2", sltu(a0, a1, a2), 0x00c5b533},
    {"xor a0,a1,a2", xor_(a0, a1, a2), 0x00c5c533},
    {"srl a0,a1,a2", srl(a0, a1, a2), 0x00c5d533},
    {"sra a0,a1,a2", sra(a0, a1, a2), 0x40c5d533},
    {"or a0,a1,a2", or_(a0, a1, a2), 0x00c5e533},
    {"and a0,a1,a2", and_(a0, a1, a2), 0x00c5f533},
    {"mul a0,a1,a2", mul(a0, a1, a2), 0x02c58533},
    {"mulh a0,a1,a2", mulh(a0, a1, a2), 0x02c59533},
    {"mulhsu a0,a1,a2", mulhsu(a0, a1, a2), 0x02c5a533},
    {"mulhu a0,a1,a2", mulhu(a0, a1, a2), 0x02c5b533},
    {"div a0,a1,a2", div(a0, a1, a2), 0x02c5c533},
    {"divu a0,a1,a2", divu(a0, a1, a2), 0x02c5d533},
    {"rem a0,a1,a2", rem(a0, a1, a2), 0x02c5e533},
    {"remu t6,a1,a2", remu(t6, a1, a2), 0x02c5ffb3},
    {"fence", fence(), 0x0ff0000f},
    {"fence.i", fence_i(), 0x0000100f},
    {"ecall", ecall(), 0x00000073},
    {"ebreak", ebreak(), 0x00100073},
    {"mret", mret(), 0x30200073},
    {"wfi", wfi(), 0x10500073},
    {"csrrw a1,mscratch,a0", csrrw(a1, 0x340, a0), 0x340515f3},
    {"csrrs a0,mstatus,a1", csrrs(a0, 0x300, a1), 0x3005a573},
    {"csrrc a0,mie,a1", csrrc(a0, 0x304, a1), 0x3045b573},
    {"csrrwi a0,mtvec,31", csrrwi(a0, 0x305, 31), 0x305fd573},
    {"csrrsi a0,mstatus,8", csrrsi(a0, 0x300, 8), 0x30046573},
    {"csrrci zero,mstatus,8", csrrci(zero, 0x300, 8), 0x30047073},
    {"lr.w a0,(a1)", lr_w(a0, a1), 0x1005a52f},
    {"sc.w a0,a2,(a1)", sc_w(a0, a2, a1), 0x18c5a52f},
    {"amoswap.w a0,a2,(a1)", amoswap_w(a0, a2, a1), 0x08c5a52f},
    {"amoadd.w a0,a2,(a1)", amoadd_w(a0, a2, a1), 0x00c5a52f},
    {"amoxor.w a0,a2,(a1)", amoxor_w(a0, a2, a1), 0x20c5a52f},
    {"amoand.w a0,a2,(a1)", amoand_w(a0, a2, a1), 0x60c5a52f},
    {"amoor.w a0,a2,(a1)", amoor_w(a0, a2, a1), 0x40c5a52f},
    {"amomin.w a0,a2,(a1)", amomin_w(a0, a2, a1), 0x80c5a52f},
    {"amomax.w a0,a2,(a1)", amomax_w(a0, a2, a1), 0xa0c5a52f},
    {"amominu.w a0,a2,(a1)", amominu_w(a0, a2, a1), 0xc0c5a52f},
    {"amomaxu.w a0,a2,(a1)", amomaxu_w(a0, a2, a1), 0xe0c5a52f},
    {"c.addi4spn a0,sp,1020", c_addi4spn(a0, 1020), 0x1fe8},
    {"c.addi4spn s1,sp,4", c_addi4spn(s1, 4), 0x0044},
    {"c.lw a0,124(a1)", c_lw(a0, a1, 124), 0x5de8},
    {"c.lw s0,4(a5)", c_lw(s0, a5, 4), 0x43c0},
    {"c.sw a0,64(a1)", c_sw(a0, a1, 64), 0xc1a8},
    {"c.sw a5,8(s0)", c_sw(a5, s0, 8), 0xc41c},
    {"c.nop", c_nop(), 0x0001},
    {"c.addi a0,-32", c_addi(a0, -32), 0x1501},
    {"c.addi t6,31", c_addi(t6, 31), 0x0ffd},
    {"c.jal .-2048", c_jal(-2048), 0x3001},
    {"c.jal .+2046", c_jal(2046), 0x2ffd},
    {"c.li a0,-1", c_li(a0, -1), 0x557d},
    {"c.li s2,17", c_li(s2, 17), 0x4945},
    {"c.addi16sp sp,-512", c_addi16sp(-512), 0x7101},
    {"c.addi16sp sp,496", c_addi16sp(496), 0x617d},
    {"c.addi16sp sp,16", c_addi16sp(16), 0x6141},
    {"c.lui a0,0xfffe0", c_lui(a0, -32), 0x7501},
    {"c.lui t0,0x1f", c_lui(t0, 31), 0x62fd},
    {"c.srli a0,31", c_srli(a0, 31), 0x817d},
    {"c.srai s1,1", c_srai(s1, 1), 0x8485},
    {"c.andi a5,-32", c_andi(a5, -32), 0x9b81},
    {"c.andi s0,21", c_andi(s0, 21), 0x8855},
    {"c.sub a0,a1", c_sub(a0, a1), 0x8d0d},
    {"c.xor s0,a5", c_xor(s0, a5), 0x8c3d},
    {"c.or a2,a3", c_or(a2, a3), 0x8e55},
    {"c.and a4,s1", c_and(a4, s1), 0x8f65},
    {"c.j .-2", c_j(-2), 0xbffd},
    {"c.j .+1024", c_j(1024), 0xa101},
    {"c.beqz a0,.-256", c_beqz(a0, -256), 0xd101},
    {"c.beqz s0,.+254", c_beqz(s0, 254), 0xcc7d},
    {"c.bnez a5,.+170", c_bnez(a5, 170), 0xe7cd},
    {"c.slli a0,31", c_slli(a0, 31), 0x057e},
    {"c.lwsp a0,252(sp)", c_lwsp(a0, 252), 0x557e},
    {"c.lwsp ra,4(sp)", c_lwsp(ra, 4), 0x4092},
    {"c.swsp a0,252(sp)", c_swsp(a0, 252), 0xdfaa},
    {"c.swsp t6,128(sp)", c_swsp(t6, 128), 0xc17e},
    {"c.jr a0", c_jr(a0), 0x8502},
    {"c.mv a0,t6", c_mv(a0, t6), 0x857e},
    {"c.ebreak", c_ebreak(), 0x9002},
    {"c.jalr t1", c_jalr(t1), 0x9302},
    {"c.add s2,a1", c_add(s2, a1), 0x992e},
};

TEST(EncoderTest, MatchesGnuAssembler) {
  for (const Row& row : kRows) EXPECT_EQ(row.encoded, row.gnu_as) << row.assembly;
}

}  // namespace
}  // namespace ssdvp::cpu::test
