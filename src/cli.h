#ifndef UB_CLI_H
#define UB_CLI_H
#endif
