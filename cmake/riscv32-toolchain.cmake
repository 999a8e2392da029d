# Cross toolchain for the controller core: Debian's riscv64-unknown-elf-gcc with picolibc,
# generating rv32imac/ilp32 code.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv32)

set(CMAKE_C_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_ASM_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_OBJCOPY riscv64-unknown-elf-objcopy)
set(CMAKE_OBJDUMP riscv64-unknown-elf-objdump)

# The assembler needs zicsr/zifencei spelled out; GCC 12's multilib selection only matches the
# plain "rv32imac", so the link line repeats -march without them (the last -march wins).
# The link line already carries the C flags, picolibc's specs among them: giving the specs twice
# is an error ("attempt to rename spec 'link'").
set(SSDVP_RV_ARCH_FLAGS "-march=rv32imac_zicsr_zifencei -mabi=ilp32")
set(CMAKE_C_FLAGS_INIT "${SSDVP_RV_ARCH_FLAGS} --specs=picolibc.specs -ffreestanding -ffunction-sections -fdata-sections")
set(CMAKE_ASM_FLAGS_INIT "${SSDVP_RV_ARCH_FLAGS}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-march=rv32imac -mabi=ilp32 -nostartfiles -Wl,--gc-sections")

# Compiler checks would try to link a hosted program.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
