// Disassembler output against GNU objdump 2.40 (riscv64-unknown-elf-objdump -d of a stripped
// image linked at 0x1000). Rows marked "2.40" differ on purpose: that release prints immediate
// forms with the register mnemonic (add a0,a0,1; csrrs a0,mstatus,8); the disassembler prints
// addi a0,a0,1 and csrrsi a0,mstatus,8 as objdump -M no-aliases and later binutils do.
#include <gtest/gtest.h>

#include <cstdint>

#include "tlm/cpu/rv_disasm.h"

namespace ssdvp::cpu {
namespace {

struct Row {
  uint32_t encoding;
  uint32_t pc;
  const char* objdump;
};

const Row kRows[] = {
    {0x00150513, 0x1000, "addi\ta0,a0,1"},  // 2.40
    {0x00a00513, 0x1004, "li\ta0,10"},
    {0x00058513, 0x1008, "mv\ta0,a1"},
    {0x00000013, 0x100c, "nop"},
    {0x80010113, 0x1010, "addi\tsp,sp,-2048"},  // 2.40
    {0xfff5c513, 0x1014, "not\ta0,a1"},
    {0x0055c513, 0x1018, "xori\ta0,a1,5"},  // 2.40
    {0x0015b513, 0x101c, "seqz\ta0,a1"},
    {0xffd5a513, 0x1020, "slti\ta0,a1,-3"},
    {0x0ff5e513, 0x1024, "ori\ta0,a1,255"},  // 2.40
    {0xff05f513, 0x1028, "andi\ta0,a1,-16"},  // 2.40
    {0x00359513, 0x102c, "slli\ta0,a1,0x3"},  // 2.40
    {0x01f5d513, 0x1030, "srli\ta0,a1,0x1f"},  // 2.40
    {0x4075d513, 0x1034, "srai\ta0,a1,0x7"},  // 2.40
    {0x40b00533, 0x1038, "neg\ta0,a1"},
    {0x40c58533, 0x103c, "sub\ta0,a1,a2"},
    {0x00b03533, 0x1040, "snez\ta0,a1"},
    {0x0005a533, 0x1044, "sltz\ta0,a1"},
    {0x00b02533, 0x1048, "sgtz\ta0,a1"},
    {0x00b00533, 0x104c, "add\ta0,zero,a1"},
    {0x41f9d933, 0x1050, "sra\ts2,s3,t6"},
    {0x12345537, 0x1054, "lui\ta0,0x12345"},
    {0xfffff597, 0x1058, "auipc\ta1,0xfffff"},
    {0x100000ef, 0x105c, "jal\t0x115c"},
    {0xff9ff06f, 0x1060, "j\t0x1058"},
    {0x010002ef, 0x1064, "jal\tt0,0x1074"},
    {0x00008067, 0x1068, "ret"},
    {0x000500e7, 0x106c, "jalr\ta0"},
    {0x00050067, 0x1070, "jr\ta0"},
    {0x00450067, 0x1074, "jr\t4(a0)"},
    {0xffc505e7, 0x1078, "jalr\ta1,-4(a0)"},
    {0xfeb508e3, 0x107c, "beq\ta0,a1,0x106c"},
    {0x00050463, 0x1080, "beqz\ta0,0x1088"},
    {0x00051463, 0x1084, "bnez\ta0,0x108c"},
    {0x00055463, 0x1088, "bgez\ta0,0x1090"},
    {0x00054463, 0x108c, "bltz\ta0,0x1094"},
    {0x00a05463, 0x1090, "blez\ta0,0x1098"},
    {0x00a04463, 0x1094, "bgtz\ta0,0x109c"},
    {0x00b56463, 0x1098, "bltu\ta0,a1,0x10a0"},
    {0xfe947ee3, 0x109c, "bgeu\ts0,s1,0x1098"},
    {0xffc10503, 0x10a0, "lb\ta0,-4(sp)"},
    {0x0025d503, 0x10a4, "lhu\ta0,2(a1)"},
    {0x00a12623, 0x10a8, "sw\ta0,12(sp)"},
    {0xfeb50fa3, 0x10ac, "sb\ta1,-1(a0)"},
    {0x02c58533, 0x10b0, "mul\ta0,a1,a2"},
    {0x02c5a533, 0x10b4, "mulhsu\ta0,a1,a2"},
    {0x027342b3, 0x10b8, "div\tt0,t1,t2"},
    {0x02c5f533, 0x10bc, "remu\ta0,a1,a2"},
    {0x1005a52f, 0x10c0, "lr.w\ta0,(a1)"},
    {0x1405a52f, 0x10c4, "lr.w.aq\ta0,(a1)"},
    {0x1ac5a52f, 0x10c8, "sc.w.rl\ta0,a2,(a1)"},
    {0x08c5a52f, 0x10cc, "amoswap.w\ta0,a2,(a1)"},
    {0xe6c5a52f, 0x10d0, "amomaxu.w.aqrl\ta0,a2,(a1)"},
    {0x30051073, 0x10d4, "csrw\tmstatus,a0"},
    {0x30002573, 0x10d8, "csrr\ta0,mstatus"},
    {0xb0002573, 0x10dc, "csrr\ta0,mcycle"},
    {0x30452073, 0x10e0, "csrs\tmie,a0"},
    {0x30453073, 0x10e4, "csrc\tmie,a0"},
    {0x340515f3, 0x10e8, "csrrw\ta1,mscratch,a0"},
    {0x3052d073, 0x10ec, "csrw\tmtvec,5"},
    {0x30046073, 0x10f0, "csrs\tmstatus,8"},
    {0x30047073, 0x10f4, "csrc\tmstatus,8"},
    {0x30046573, 0x10f8, "csrrsi\ta0,mstatus,8"},  // 2.40
    {0x30003573, 0x10fc, "csrrc\ta0,mstatus,zero"},
    {0xc0002573, 0x1100, "rdcycle\ta0"},
    {0xc8202573, 0x1104, "rdinstreth\ta0"},
    {0x7c002573, 0x1108, "csrr\ta0,0x7c0"},
    {0xf1402573, 0x110c, "csrr\ta0,mhartid"},
    {0x00000073, 0x1110, "ecall"},
    {0x00100073, 0x1114, "ebreak"},
    {0x30200073, 0x1118, "mret"},
    {0x10500073, 0x111c, "wfi"},
    {0x0ff0000f, 0x1120, "fence"},
    {0x0330000f, 0x1124, "fence\trw,rw"},
    {0x0210000f, 0x1128, "fence\tr,w"},
    {0x8330000f, 0x112c, "fence.tso"},
    {0x0000100f, 0x1130, "fence.i"},
    {0x0000, 0x1134, "unimp"},
    {0x0505, 0x113c, "addi\ta0,a0,1"},  // 2.40
    {0x4515, 0x113e, "li\ta0,5"},
    {0x852e, 0x1140, "mv\ta0,a1"},
    {0x952e, 0x1142, "add\ta0,a0,a1"},
    {0x8082, 0x1144, "ret"},
    {0x8502, 0x1146, "jr\ta0"},
    {0x9502, 0x1148, "jalr\ta0"},
    {0xbfc5, 0x114a, "j\t0x113a"},
    {0x2081, 0x114c, "jal\t0x118c"},
    {0xc501, 0x114e, "beqz\ta0,0x1156"},
    {0xfce5, 0x1150, "bnez\ts1,0x1148"},
    {0x41c8, 0x1152, "lw\ta0,4(a1)"},
    {0xc588, 0x1154, "sw\ta0,8(a1)"},
    {0x4532, 0x1156, "lw\ta0,12(sp)"},
    {0xc82a, 0x1158, "sw\ta0,16(sp)"},
    {0x7139, 0x115a, "addi\tsp,sp,-64"},  // 2.40
    {0x0808, 0x115c, "addi\ta0,sp,16"},  // 2.40
    {0x757d, 0x115e, "lui\ta0,0xfffff"},
    {0x050a, 0x1160, "slli\ta0,a0,0x2"},  // 2.40
    {0x810d, 0x1162, "srli\ta0,a0,0x3"},  // 2.40
    {0x8511, 0x1164, "srai\ta0,a0,0x4"},  // 2.40
    {0x9979, 0x1166, "andi\ta0,a0,-2"},  // 2.40
    {0x8d0d, 0x1168, "sub\ta0,a0,a1"},
    {0x8d2d, 0x116a, "xor\ta0,a0,a1"},
    {0x8d4d, 0x116c, "or\ta0,a0,a1"},
    {0x8d6d, 0x116e, "and\ta0,a0,a1"},
    {0x0001, 0x1170, "nop"},
    {0x9002, 0x1172, "ebreak"},
    {0x9d01, 0x1174, ".2byte\t0x9d01"},
    {0xffffffff, 0x1138, ".4byte\t0xffffffff"},
    {0x00002063, 0x1000, ".4byte\t0x2063"},  // branch funct3 = 2
    {0x02005013, 0x1000, ".4byte\t0x2005013"},  // srli with shamt[5]
    // F (objdump of an image assembled with -march=rv32imafc_zicsr)
    {0x00812507, 0x2000, "flw\tfa0,8(sp)"},
    {0x8005a007, 0x2004, "flw\tft0,-2048(a1)"},
    {0x00a12627, 0x2008, "fsw\tfa0,12(sp)"},
    {0x7fb52fa7, 0x200c, "fsw\tfs11,2047(a0)"},
    {0x68c5f543, 0x2010, "fmadd.s\tfa0,fa1,fa2,fa3"},
    {0x68c58543, 0x2014, "fmadd.s\tfa0,fa1,fa2,fa3,rne"},
    {0x18209047, 0x2018, "fmsub.s\tft0,ft1,ft2,ft3,rtz"},
    {0x9924a44b, 0x201c, "fnmsub.s\tfs0,fs1,fs2,fs3,rdn"},
    {0xf9eebe4f, 0x2020, "fnmadd.s\tft8,ft9,ft10,ft11,rup"},
    {0x00c5f553, 0x2024, "fadd.s\tfa0,fa1,fa2"},
    {0x00c5c553, 0x2028, "fadd.s\tfa0,fa1,fa2,rmm"},
    {0x08c5f553, 0x202c, "fsub.s\tfa0,fa1,fa2"},
    {0x10c59553, 0x2030, "fmul.s\tfa0,fa1,fa2,rtz"},
    {0x18c5f553, 0x2034, "fdiv.s\tfa0,fa1,fa2"},
    {0x5805f553, 0x2038, "fsqrt.s\tfa0,fa1"},
    {0x58058553, 0x203c, "fsqrt.s\tfa0,fa1,rne"},
    {0x20c58553, 0x2040, "fsgnj.s\tfa0,fa1,fa2"},
    {0x20c59553, 0x2044, "fsgnjn.s\tfa0,fa1,fa2"},
    {0x20c5a553, 0x2048, "fsgnjx.s\tfa0,fa1,fa2"},
    {0x20b58553, 0x204c, "fmv.s\tfa0,fa1"},
    {0x20001053, 0x2050, "fneg.s\tft0,ft0"},
    {0x20b5a553, 0x2054, "fabs.s\tfa0,fa1"},
    {0x28c58553, 0x2058, "fmin.s\tfa0,fa1,fa2"},
    {0x28c59553, 0x205c, "fmax.s\tfa0,fa1,fa2"},
    {0xc0057553, 0x2060, "fcvt.w.s\ta0,fa0"},
    {0xc0051553, 0x2064, "fcvt.w.s\ta0,fa0,rtz"},
    {0xc0150553, 0x2068, "fcvt.wu.s\ta0,fa0,rne"},
    {0xe0050553, 0x206c, "fmv.x.w\ta0,fa0"},
    {0xa0b52553, 0x2070, "feq.s\ta0,fa0,fa1"},
    {0xa0b51553, 0x2074, "flt.s\ta0,fa0,fa1"},
    {0xa0b50553, 0x2078, "fle.s\ta0,fa0,fa1"},
    {0xe0051553, 0x207c, "fclass.s\ta0,fa0"},
    {0xd0057553, 0x2080, "fcvt.s.w\tfa0,a0"},
    {0xd0053553, 0x2084, "fcvt.s.w\tfa0,a0,rup"},
    {0xd0157553, 0x2088, "fcvt.s.wu\tfa0,a0"},
    {0xf0050553, 0x208c, "fmv.w.x\tfa0,a0"},
    {0x00102573, 0x2090, "frflags\ta0"},
    {0x00151073, 0x2094, "fsflags\ta0"},
    {0x00159573, 0x2098, "fsflags\ta0,a1"},
    {0x00202573, 0x209c, "frrm\ta0"},
    {0x00251073, 0x20a0, "fsrm\ta0"},
    {0x00259573, 0x20a4, "fsrm\ta0,a1"},
    {0x00302573, 0x20a8, "frcsr\ta0"},
    {0x00351073, 0x20ac, "fscsr\ta0"},
    {0x00359573, 0x20b0, "fscsr\ta0,a1"},
    {0x0012d073, 0x20b4, "fsflagsi\tzero,5"},
    {0x00215573, 0x20b8, "fsrmi\ta0,2"},
    {0x00152073, 0x20bc, "csrs\tfflags,a0"},
    {0x00253073, 0x20c0, "csrc\tfrm,a0"},
    {0x0035a573, 0x20c4, "csrrs\ta0,fcsr,a1"},
    {0x0031d073, 0x20c8, "csrw\tfcsr,3"},
    {0x61c8, 0x20cc, "flw\tfa0,4(a1)"},
    {0xe588, 0x20ce, "fsw\tfa0,8(a1)"},
    {0x6532, 0x20d0, "flw\tfa0,12(sp)"},
    {0x6002, 0x20d2, "flw\tft0,0(sp)"},
    {0xe82a, 0x20d4, "fsw\tfa0,16(sp)"},
    {0xfffe, 0x20d6, "fsw\tft11,252(sp)"},
    {0x0031d573, 0x20d8, "csrrwi\ta0,fcsr,3"},  // 2.40
    {0x00c5d553, 0x20dc, ".4byte\t0xc5d553"},   // rm = 5: 2.40 prints fadd.s fa0,fa1,fa2,unknown
    {0x00c5e553, 0x20e0, ".4byte\t0xc5e553"},   // rm = 6: likewise
    {0x02c5f553, 0x20e4, ".4byte\t0x2c5f553"},  // fadd.d: no D
    {0x2000, 0x20e8, ".2byte\t0x2000"},         // c.fld: no D
};

TEST(DisassemblerTest, MatchesObjdump) {
  for (const Row& row : kRows) {
    EXPECT_EQ(disassemble(row.encoding, row.pc), row.objdump)
        << std::hex << row.encoding << " at " << row.pc;
  }
}

TEST(DisassemblerTest, UsesOnlyTheLowHalfOfACompressedEncoding) {
  EXPECT_EQ(disassemble(0xABCD0505u, 0), "addi\ta0,a0,1");
}

}  // namespace
}  // namespace ssdvp::cpu
