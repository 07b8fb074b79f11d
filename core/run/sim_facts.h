/* What a simulated run simulates: the cards its sim steps use, as the
 * controller probes would have named real ones, marked simulated. */
#ifndef HB_RUN_SIM_FACTS_H
#define HB_RUN_SIM_FACTS_H

#include "measure/probe.h"
#include "measure/step.h"

/* Each distinct card the simulating steps use (a preset's card facts, or a
 * generic simulated JBOD) as controller c0, c1 ... in plan order, each
 * distinct volume (layout) of a card as its v0, v1 ..., their facts behind
 * every target of the steps that use them (probe: the engine's name), with
 * cN.simulated = yes; appended to out. A step with several cards (sim =
 * { cards = ... }) puts each card behind its share of the targets, each a
 * controller of its own, with its link as probe pcie facts. */
void sim_facts_collect(const struct step_spec *steps, unsigned n, struct facts *out);

#endif
