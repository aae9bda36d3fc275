/* ptx_float.c — (to be written) */
