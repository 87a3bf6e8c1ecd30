/* Self-written minimal stand-in (first-contact-20, mori DLPack utils):
   the hipDataType names the file returns; the values are arbitrary. */
#pragma once
typedef enum hipDataType {
  HIP_R_32F = 0,
  HIP_R_16F = 1,
  HIP_R_16BF = 2,
  HIP_R_8F_E4M3_FNUZ = 3
} hipDataType;
