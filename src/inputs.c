/* inputs.c — (to be written) */
