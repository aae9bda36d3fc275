#ifndef UB_RUN_H
#define UB_RUN_H
#endif
