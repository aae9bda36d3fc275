/* ptx_parse.c — (to be written) */
