/* nvrtc.c — (to be written) */
