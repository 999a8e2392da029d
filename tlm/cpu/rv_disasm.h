// Disassembler (RV32IMAFC + Zicsr) for instruction traces and fault reports. Mnemonics and
// operand order follow GNU objdump's default output (its pseudo-instructions such as li, mv, ret,
// beqz, csrr, fmv.s, frflags), with branch and jump targets as absolute 0x addresses, as objdump
// prints them without symbols.
// Deliberate differences: immediate forms are printed with their own mnemonic (addi, slli,
// andi, csrrsi ...), where binutils 2.40 prints add/sll/and/csrrs with an immediate operand; and
// an F instruction with a reserved rounding mode (5, 6) is printed as data, since the hart traps
// on it, where objdump prints it with the operand "unknown".
#pragma once

#include <cstdint>
#include <string>

namespace ssdvp::cpu {

// `encoding` holds a 32-bit instruction, or a 16-bit one in its low half (bits [1:0] != 3);
// `pc` is the instruction's address, used to print branch and jump targets.
std::string disassemble(uint32_t encoding, uint32_t pc);

}  // namespace ssdvp::cpu
