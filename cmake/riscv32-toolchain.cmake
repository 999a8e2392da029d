# Cross toolchain for the controller core: Debian's riscv64-unknown-elf-gcc with picolibc,
# generating rv32imafc/ilp32f code (single-precision float in hardware, float arguments in f
# registers). The core starts with its FPU off: crt0.S turns it on before any C code runs.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv32)

set(CMAKE_C_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_ASM_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_OBJCOPY riscv64-unknown-elf-objcopy)
set(CMAKE_OBJDUMP riscv64-unknown-elf-objdump)

# The assembler needs zicsr/zifencei spelled out; GCC 12's multilib selection only matches the
# plain "rv32imafc", so the link line repeats -march without them (the last -march wins). Check
# with `riscv64-unknown-elf-gcc -march=rv32imafc -mabi=ilp32f -print-multi-directory`: it must
# print rv32imafc/ilp32f; with _zicsr it prints "." (the default rv64 libraries) and the link
# fails with "ABI is incompatible with that of the selected emulation".
# The link line already carries the C flags, picolibc's specs among them: giving the specs twice
# is an error ("attempt to rename spec 'link'").
set(SSDVP_RV_ARCH_FLAGS "-march=rv32imafc_zicsr_zifencei -mabi=ilp32f")
set(CMAKE_C_FLAGS_INIT "${SSDVP_RV_ARCH_FLAGS} --specs=picolibc.specs -ffreestanding -ffunction-sections -fdata-sections")
set(CMAKE_ASM_FLAGS_INIT "${SSDVP_RV_ARCH_FLAGS}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-march=rv32imafc -mabi=ilp32f -nostartfiles -Wl,--gc-sections")

# The *_FLAGS_INIT values only seed a new cache: a build tree configured with other flags (the
# rv32imac/ilp32 ones before F) would keep them. This file is read again at every configure, so
# it drops stale flags here and CMake seeds them afresh.
if(NOT "$CACHE{SSDVP_RV_SEEDED_ARCH_FLAGS}" STREQUAL "${SSDVP_RV_ARCH_FLAGS}")
  unset(CMAKE_C_FLAGS CACHE)
  unset(CMAKE_ASM_FLAGS CACHE)
  unset(CMAKE_EXE_LINKER_FLAGS CACHE)
  set(SSDVP_RV_SEEDED_ARCH_FLAGS "${SSDVP_RV_ARCH_FLAGS}" CACHE INTERNAL
      "architecture flags the cached compiler and linker flags were seeded with")
endif()

# Compiler checks would try to link a hosted program.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
