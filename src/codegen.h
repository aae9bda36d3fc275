#ifndef UB_CODEGEN_H
#define UB_CODEGEN_H
#endif
