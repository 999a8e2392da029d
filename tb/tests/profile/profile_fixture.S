# Functions at fixed addresses for the profile report test (.text starts at 0x100).
    .section .text, "ax"
    .option norvc

    .globl alpha
    .type alpha, @function
alpha:                       # 0x100, 16 bytes
    .fill 4, 4, 0x00000013
    .size alpha, . - alpha

    .type beta, @function
beta:                        # 0x110, 8 bytes
    .fill 2, 4, 0x00000013
    .size beta, . - beta

    .fill 2, 4, 0            # 0x118..0x120: covered by no function

    .globl gamma
    .type gamma, @function
gamma:                       # 0x120, no size: extends to the next function
    .fill 8, 4, 0x00000013

    .globl delta
    .type delta, @function
delta:                       # 0x140, 4 bytes
    .4byte 0x00008067
    .size delta, . - delta
