/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared main() for the Check unit suites: each test file defines suite_<mod>(). */
#ifndef FWS_UNIT_H
#define FWS_UNIT_H

#include <check.h>
#include <stdlib.h>

#define FWS_UNIT_MAIN(suite_fn)                                                                    \
	int main(void)                                                                             \
	{                                                                                          \
		SRunner *sr = srunner_create(suite_fn());                                          \
		int failed;                                                                        \
                                                                                                   \
		srunner_run_all(sr, CK_NORMAL);                                                    \
		failed = srunner_ntests_failed(sr);                                                \
		srunner_free(sr);                                                                  \
		return failed ? EXIT_FAILURE : EXIT_SUCCESS;                                       \
	}

#endif /* FWS_UNIT_H */
