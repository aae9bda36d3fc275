#ifndef UB_NVRTC_H
#define UB_NVRTC_H
#endif
