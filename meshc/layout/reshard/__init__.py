"""Reshard plans: turn any change of sharding spec into collectives that move the fewest bytes.

`plan_reshard(shape, dtype, source, target)` answers "which bytes must move, from which device
to which" for a tensor going from one `ShardingSpec` to another. The two specs may sit on
different views of the same devices (`[DP=2, CP=2, TP=2]` and `[EP=8]` over 8 devices; device
ids are row-major in each view, and device i of one view is device i of the other).

How a plan is made (docs/reshard.md has the pictures):

1. The tensor is cut into *cells*: per dim, the intervals between every chunk boundary of the
   source and the target spec. Every device holds (source) and needs (target) whole cells, so
   "who holds what" is a small boolean matrix devices x cells, computed from the specs' boxes.
2. Partial sums (source partial over mesh axes the target is not partial over) are first
   reduce-scattered over those axes; the dim they scatter is the one that makes the rest cheapest.
3. Every device then receives exactly the cells it needs and does not hold, each once. Moves
   run axis by axis along the mesh (a device may forward a cell it received earlier, but only a
   cell it needs itself), then one last step sends what is left directly from the nearest holder.
   Every byte delivered is a byte the receiver needs and lacked, so for placements without
   partial sums the delivered bytes equal the lower bound. The axis order with the fewest
   link-hop bytes wins.
4. Each step is named as the collective it is (all_gather, all_to_all, collective_permute,
   reduce_scatter, all_reduce, all_slice) with its mesh axes or device groups and its exact
   transfers: (src device, dst device, global index box, bytes).

`execute_plan(plan, shards)` runs a plan on numpy arrays and checks that every target element is
written exactly once; the tests use it to check every device ends with exactly its target data.

Files: plan.py (Transfer, Step, ReshardPlan), planner.py (plan_reshard, lower_bound_bytes),
cells.py (the cell grid), moves.py (the array work of step 3), distances.py (link hops between
chips), execute.py (execute_plan), walk.py (collective_walk, as_view).
"""


from meshc.layout.reshard.execute import execute_plan
from meshc.layout.reshard.plan import Box, ReshardPlan, Step, Transfer
from meshc.layout.reshard.planner import lower_bound_bytes, plan_reshard
from meshc.layout.reshard.walk import CollectiveStep, as_view, collective_walk

__all__ = ["Box", "CollectiveStep", "ReshardPlan", "Step", "Transfer", "as_view", "collective_walk",
           "execute_plan", "lower_bound_bytes", "plan_reshard"]
