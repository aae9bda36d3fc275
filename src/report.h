#ifndef UB_REPORT_H
#define UB_REPORT_H
#endif
