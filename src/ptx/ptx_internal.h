#ifndef UB_PTX_INTERNAL_H
#define UB_PTX_INTERNAL_H
#endif
