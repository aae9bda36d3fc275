/* ptx_exec.c — (to be written) */
