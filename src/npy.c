/* npy.c — (to be written) */
