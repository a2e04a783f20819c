#include "micro_runtime/common.h"

const char* TfLiteTypeName(TfLiteType type) {
  switch (type) {
    case kTfLiteFloat32:
      return "FLOAT32";
    case kTfLiteFloat16:
      return "FLOAT16";
    case kTfLiteInt32:
      return "INT32";
    case kTfLiteUInt8:
      return "UINT8";
    case kTfLiteInt64:
      return "INT64";
    case kTfLiteString:
      return "STRING";
    case kTfLiteBool:
      return "BOOL";
    case kTfLiteInt16:
      return "INT16";
    case kTfLiteComplex64:
      return "COMPLEX64";
    case kTfLiteInt8:
      return "INT8";
    case kTfLiteNoType:
      return "NOTYPE";
  }
  return "UNKNOWN";
}
