#ifndef UB_SIM_H
#define UB_SIM_H
#endif
