/*
 * clusterbound.h - lower bounds on the total completion time of a job set
 * on a cluster (spec asrpt.md §7 [O]). Every bound uses n_j tau_lb_j as a
 * job's processing time, tau_lb_j = sb_job_iter_time_lb (no placement is
 * faster), so it holds whatever placement or preemption a policy uses.
 */
#ifndef SB_CLUSTERBOUND_H
#define SB_CLUSTERBOUND_H

#include "cluster.h"
#include "lp.h"

/*
 * LB1: max( sum of completion times of preemptive SRPT on one machine of
 * speed N = S x G fed the works g_j n_j tau_lb_j at their arrivals,
 * sum over jobs of a_j + n_j tau_lb_j ). The first term is a bound because
 * any cluster schedule can be replayed on that machine at rate g_j per
 * running job, and SRPT is optimal for 1|r_j, pmtn|sum C_j. O(n log n).
 * If cv is not NULL it receives each job's SRPT completion.
 */
double sb_cluster_lb1(const struct sb_cluster *c, const struct sb_jobset *js,
		      const double *tau_lb);
void sb_cluster_srpt_completions(const struct sb_cluster *c, const struct sb_jobset *js,
				 const double *tau_lb, double *cv);

#endif
