/* IEEE 754 binary16 ("half") from and to binary32, in integer operations: the controller core
 * has no half-precision unit, and the host tests must round exactly as it does. Round to
 * nearest, ties to even; a value too large for a half becomes infinity, NaN stays NaN. */
#ifndef SSDVP_FIRMWARE_LIB_HALF_H
#define SSDVP_FIRMWARE_LIB_HALF_H

#include <stdint.h>
#include <string.h>

static inline uint16_t half_from_float(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  uint32_t sign = (bits >> 16) & 0x8000u;
  uint32_t exponent = (bits >> 23) & 0xFFu;
  uint32_t mantissa = bits & 0x7FFFFFu;
  if (exponent == 0xFFu) {
    return (uint16_t)(sign | 0x7C00u | (mantissa != 0 ? 0x200u : 0u));
  }
  int32_t half_exponent = (int32_t)exponent - 127 + 15;
  if (half_exponent >= 31) {
    return (uint16_t)(sign | 0x7C00u);
  }
  uint32_t shift;
  uint32_t significand = mantissa | 0x800000u; /* the implicit one */
  if (half_exponent <= 0) {
    if (half_exponent < -10) {
      return (uint16_t)sign; /* below half the smallest subnormal */
    }
    shift = (uint32_t)(14 - half_exponent); /* a subnormal half */
    half_exponent = 0;
  } else {
    shift = 13;
    significand = mantissa;
  }
  uint32_t kept = significand >> shift;
  uint32_t rest = significand & ((1u << shift) - 1u);
  uint32_t halfway = 1u << (shift - 1u);
  uint32_t result = sign | ((uint32_t)half_exponent << 10) | kept;
  if (rest > halfway || (rest == halfway && (kept & 1u) != 0)) {
    ++result; /* a carry into the exponent is still the right value */
  }
  return (uint16_t)result;
}

static inline float half_to_float(uint16_t half) {
  uint32_t sign = (uint32_t)(half & 0x8000u) << 16;
  uint32_t exponent = (half >> 10) & 0x1Fu;
  uint32_t mantissa = half & 0x3FFu;
  uint32_t bits;
  if (exponent == 0x1Fu) {
    bits = sign | 0x7F800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent - 15u + 127u) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {
    uint32_t shift = 0; /* a subnormal half is a normal float */
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      ++shift;
    }
    bits = sign | ((127u - 15u + 1u - shift) << 23) | ((mantissa & 0x3FFu) << 13);
  }
  float value;
  memcpy(&value, &bits, sizeof value);
  return value;
}

#endif
