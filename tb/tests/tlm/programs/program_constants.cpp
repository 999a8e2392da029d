// Writes the interface constants the test programs use: assembler `.equ` lines (constants.inc)
// and linker symbols (memory.ld). The C headers' unsigned-suffixed numbers (0x10u) are valid
// neither in assembly nor in linker scripts, so the values are printed from C++.
#include <cstdio>
#include <string>

#include "clint_regs.h"
#include "memory_map.h"
#include "sysctrl_regs.h"

#define EQU(name) std::fprintf(out, ".equ %s, 0x%08x\n", #name, static_cast<unsigned>(name))

namespace {

std::FILE* open_output(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) std::perror(path.c_str());
  return file;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
    return 2;
  }
  std::FILE* linker = open_output(std::string(argv[1]) + "/memory.ld");
  if (linker == nullptr) return 1;
  std::fprintf(linker, "ROM_BASE = 0x%08x;\n", MM_ROM_BASE);
  std::fprintf(linker, "SRAM_DATA_BASE = 0x%08x;\n", MM_SRAM_BASE + MM_BOOT_CONFIG_RESERVED);
  if (std::fclose(linker) != 0) return 1;

  std::FILE* out = open_output(std::string(argv[1]) + "/constants.inc");
  if (out == nullptr) return 1;
  EQU(MM_SYSCTRL_BASE);
  EQU(MM_CLINT_BASE);
  EQU(MM_SRAM_BASE);
  EQU(SYSCTRL_CONSOLE_TX);
  EQU(SYSCTRL_EXIT);
  EQU(SYSCTRL_FAULT);
  EQU(SYSCTRL_HART_COUNT);
  std::fprintf(out, ".equ CLINT_MTIMECMP0_LO, 0x%08x\n", CLINT_MTIMECMP_LO(0));
  std::fprintf(out, ".equ CLINT_MTIMECMP0_HI, 0x%08x\n", CLINT_MTIMECMP_HI(0));
  return std::fclose(out) == 0 ? 0 : 1;
}
