/* codegen.c — (to be written) */
