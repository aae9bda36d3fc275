/* catalog.c — (to be written) */
