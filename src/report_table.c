/* report_table.c — (to be written) */
