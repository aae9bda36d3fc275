/* report_csv.c — (to be written) */
