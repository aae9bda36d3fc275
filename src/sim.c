/* sim.c — (to be written) */
