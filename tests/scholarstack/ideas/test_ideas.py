"""Idea graphs: merge semantics, signals by hand, slate validation, critic training and inference,
replay of a persisted episode, and episodes end to end (offline and with the local LLM)."""

from __future__ import annotations

import pytest

from scholarstack.ideas.control import HeuristicTeacher, LearnedController, RandomController
from scholarstack.ideas.critic import GraphCritic
from scholarstack.ideas.judge import CRITERIA, judge_offline, judge_with_model
from scholarstack.ideas.graph import ROLES, ROUND_ONE_KINDS, Action, IdeaGraph, active_roles, merge, phase_mask, signals, validate_slate
from scholarstack.ideas.roles import candidate_slate
from scholarstack.ideas.proposal import synthesize_proposal, write_proposal
from scholarstack.ideas.runtime import Episode, graph_fingerprint, replay, run_episode
from scholarstack.ideas.train import profile
from scholarstack.index.embed import TfidfSvdEmbedder
from scholarstack.store import Store
from scholarstack.views.views import open_kb
from tests.conftest import local_llm


def backbone() -> IdeaGraph:
    g = IdeaGraph(topic="t")
    for t in ("Problem", "Hypothesis", "Method", "EvalPlan"):
        g.add_node(t, f"{t} text", "seed", 0)
    return g  # ids pro1 hyp1 met1 eva1


def test_signals_hand_computed():
    g = backbone()
    # No edges, no evidence: sup=evi=0; no contradictions; slots 4/4; deps 0/3; largest component 1 of 4.
    s = signals(g)
    assert (s["grounding"], s["contradiction_load"]) == (0.0, 0.0)
    assert s["completeness"] == pytest.approx(0.25 * 1 + 0.45 * 0 + 0.30 * 0.25)
    assert s["maturity"] == pytest.approx(0.40 * 0 + 0.35 * s["completeness"] + 0.25 * 1)
    g.add_edge("hyp1", "pro1", "depends_on", "r")
    g.add_edge("met1", "hyp1", "supports", "r")
    g.nodes["met1"].evidence = [{"object_id": "fac_1", "locators": ["P:1"]}]
    rid = g.add_node("Risk", "risk", "r", 1)
    g.add_edge(rid, "met1", "contradicts", "r")
    s = signals(g)
    # claims: hyp1, met1, eva1 → supported {hyp1} = 1/3; evidence {met1} = 1/3; g = 1/3.
    assert s["grounding"] == pytest.approx(1 / 3)
    # one contradiction, unresolved: edge share 1; open targets {met1} of 5 nodes → r = 0.65 + 0.35/5.
    assert s["contradiction_load"] == pytest.approx(0.65 + 0.35 / 5)
    # deps 1/3; largest component {pro1, hyp1, met1, risk} = 4 of 5.
    assert s["completeness"] == pytest.approx(0.25 + 0.45 / 3 + 0.30 * 4 / 5)
    assert s["maturity"] == pytest.approx(0.40 / 3 + 0.35 * s["completeness"] + 0.25 * (1 - s["contradiction_load"]))


def test_slate_validation_and_dedup():
    g = backbone()
    g.add_edge("met1", "hyp1", "contradicts", "r")
    slate = [
        Action(round=1, role="r", kind="add_dependency_edge", targets=["met1", "hyp1"]),  # clashes with the contradiction
        Action(round=1, role="r", kind="add_support_edge", targets=["eva1", "hyp1"]),
        Action(round=1, role="r", kind="add_support_edge", targets=["eva1", "hyp1"]),  # duplicate
        Action(round=1, role="r", kind="add_support_edge", targets=["nope", "hyp1"]),  # unknown node
        Action(round=1, role="r", kind="add_dependency_edge", targets=["eva1", "met1"]),
        Action(round=1, role="r", kind="add_contradiction_edge", targets=["met1", "eva1"]),  # clashes with the dependency above
    ]
    kept = validate_slate(g, slate)
    assert [(a.kind, a.targets) for a in kept] == [
        ("add_support_edge", ["eva1", "hyp1"]), ("add_dependency_edge", ["eva1", "met1"]), ("skip", [])]


def test_merge_order_and_last_patch_wins():
    g = backbone()
    g.add_edge("met1", "hyp1", "contradicts", "r")
    selected = [
        Action(round=2, role="A", kind="attach_evidence", targets=["hyp1"], payload={"evidence": [{"object_id": "fac_a"}]}),
        Action(round=2, role="B", kind="propose_repair", targets=["hyp1"], payload={"text": "first repair"}),
        Action(round=2, role="C", kind="propose_repair", targets=["hyp1"], payload={"text": "second repair"}),
        Action(round=2, role="D", kind="add_dependency_edge", targets=["hyp1", "pro1"]),
    ]
    merged = merge(g, selected)
    repairs = [n for n in merged.nodes.values() if n.type == "Repair"]
    assert [r.text for r in repairs] == ["second repair"]  # same target, same kind: the later patch overwrites
    assert merged.branches["B"].rejected and "overwritten by C" in merged.branches["B"].notes[0]
    contradictions = [e for e in merged.edges if e.type == "contradicts"]
    assert contradictions and all(e.resolved for e in contradictions)
    assert merged.nodes["hyp1"].evidence[0].object_id == "fac_a"
    assert not g.edges[0].resolved and len(g.nodes) == 4  # the frozen snapshot itself is untouched


def test_merge_keys_on_the_whole_target():
    g = backbone()
    selected = [Action(round=2, role="A", kind="add_support_edge", targets=["met1", "hyp1"]),
                Action(round=2, role="B", kind="add_support_edge", targets=["met1", "eva1"])]  # one source, two edges
    merged = merge(g, selected)
    assert {(e.src, e.dst) for e in merged.edges if e.type == "supports"} == {("met1", "hyp1"), ("met1", "eva1")}


def test_the_gate_activates_roles_by_the_work_the_graph_has():
    g = backbone()
    assert active_roles(g, 1) == ROLES  # round 1: everyone
    assert {"MechanismProposer", "EvaluationDesigner"} <= set(active_roles(g, 2))  # no dependencies yet
    a = g.add_node("Assumption", "a", "seed", 0)
    n = g.add_node("NoveltyClaim", "n", "seed", 0)
    for src, dst in (("hyp1", "pro1"), ("met1", "hyp1"), ("eva1", "met1"), ("met1", a)):
        g.add_edge(src, dst, "depends_on", "seed")
    for src, dst in (("met1", "hyp1"), ("pro1", n), ("eva1", "met1")):
        g.add_edge(src, dst, "supports", "seed")
    for node in g.nodes.values():
        node.evidence = [{"object_id": "fac_1", "locators": ["P:1"]}]
    for i, kind in enumerate(("contradicts", "contradicts", "overlaps_prior")):
        w = g.add_node("Risk", f"weakness {i}", "seed", 1)
        g.add_edge(w, "met1" if kind == "contradicts" else n, kind, "seed")
        g.edges[-1].resolved = True
    assert active_roles(g, 2) == ()  # framed, grounded, closed, no open contradiction, risks examined: nobody is needed
    g.edges[-1].resolved = False
    assert set(active_roles(g, 2)) == {"MechanismProposer", "ImpactReframer"}  # an open contradiction calls the repairers


def test_round_one_admits_structure_only_and_a_repair_answers_its_own_weakness():
    g = backbone()
    risk = g.add_node("Risk", "Feasibility risk: the corpus is too small.", "FeasibilityCritic", 1)
    g.add_edge(risk, "met1", "contradicts", "FeasibilityCritic")
    g.add_edge("eva1", "met1", "supports", "EvaluationDesigner")  # not a weakness: no repair may quote it
    slate = validate_slate(g, candidate_slate(g, "MechanismProposer", 1))
    assert {a.kind for a in phase_mask(slate, 1)} <= ROUND_ONE_KINDS and any(a.kind == "propose_repair" for a in slate)
    repairs = [a for a in phase_mask(slate, 2) if a.kind == "propose_repair"]
    assert len(repairs) == 1 and "corpus is too small" in repairs[0].payload["text"] and repairs[0].payload["weakness"] == risk
    overlap = g.add_node("Risk", "Prior work: TnT already does this.", "NoveltyExaminer", 1)
    g.add_edge(overlap, "met1", "overlaps_prior", "NoveltyExaminer")
    merged = merge(g, repairs)  # the repair answers the risk, not the overlap it never mentioned
    assert [e.resolved for e in merged.edges if e.dst == "met1" and e.type in ("contradicts", "overlaps_prior")] == [True, False]


def test_an_ungrounded_claim_records_its_evidence_need_until_evidence_meets_it():
    g = backbone()
    slate = phase_mask(validate_slate(g, candidate_slate(g, "EvaluationDesigner", 1)), 1)  # no store: nothing to attach
    needs = [a for a in slate if a.payload.get("edge") == "requires_evidence"]
    assert [a.targets for a in needs] == [["eva1"]] and needs[0].kind == "add_dependency_edge"  # a structural edit: round 1 admits it
    skip = Action(round=1, role="EvaluationDesigner", kind="skip")
    assert HeuristicTeacher().choose(g, [needs[0], skip]).key() == needs[0].key()  # exposing the gap beats doing nothing
    merged = merge(g, needs)
    need = next(n for n in merged.nodes.values() if n.type == "EvidenceNeed")
    assert [(e.src, e.type, e.dst, e.resolved) for e in merged.edges] == [("eva1", "requires_evidence", need.id, False)]
    assert synthesize_proposal(merged).evidence_needs == [need.text]
    assert not [a for a in candidate_slate(merged, "EvaluationDesigner", 2) if a.payload.get("edge") == "requires_evidence"]  # once
    evidence = Action(round=2, role="NoveltyExaminer", kind="attach_evidence", targets=["eva1"],
                      payload={"evidence": [{"object_id": "fac_a", "locators": ["P:3"]}]})
    met = merge(merged, [evidence])
    assert met.open_needs("eva1") == [] and synthesize_proposal(met).evidence_needs == []


def test_a_refinement_refines_its_node_and_becomes_what_the_idea_rests_on(kb):
    from scholarstack.ideas.agents import ProposedEdit, proposed_slate

    g = backbone()  # the Problem is the seed's wording, with no evidence
    g.nodes["hyp1"].text = "Statistical part-of-speech taggers reach high accuracy on unknown words."
    g.nodes["met1"].text = "A trigram tagger with suffix analysis for unknown words."
    refine = [a for a in candidate_slate(g, "ImpactReframer", 2, kb) if a.payload.get("edge") == "refines"]
    assert len(refine) == 1 and refine[0].targets == ["pro1"] and refine[0].payload["new_node"]["evidence"]
    assert all(kb.store.get_row(e["object_id"]) for e in refine[0].payload["new_node"]["evidence"])  # registered objects
    twin = refine[0].model_copy(update={"role": "MechanismProposer", "payload": refine[0].payload | {
        "new_node": refine[0].payload["new_node"] | {"text": "another wording"}}})
    merged = merge(g, [refine[0], twin])  # two refinements of one node are two patches: both stand
    refinements = [e for e in merged.edges if e.type == "refines"]
    assert len(refinements) == 2 and {e.dst for e in refinements} == {"pro1"}
    assert merged.current("Problem").id == refinements[-1].src != "pro1"
    assert synthesize_proposal(merged).problem == merged.current("Problem").text
    once = merge(g, refine)
    assert once.current("Problem").evidence and not [a for a in candidate_slate(once, "ImpactReframer", 3, kb)
                                                     if a.payload.get("edge") == "refines"]  # grounded now: no second refinement
    edit = ProposedEdit(kind="add_dependency_edge", node="met1", text="Use a bidirectional tagger with a lexicon.")  # the model's refinement
    slate, failure = proposed_slate(ScriptedModel([edit]), g, "MechanismProposer", 2, kb)
    assert failure is None and slate[0].payload["edge"] == "refines" and slate[0].payload["new_node"]["type"] == "Method"


@pytest.fixture(scope="module")
def kb(compiled_sample):
    return open_kb(Store(compiled_sample), "tfidf")


def test_episode_end_to_end_offline_and_replay(kb, tmp_path):
    ep = run_episode("part-of-speech tagging", HeuristicTeacher(), kb, rounds=5)
    assert ep.committed_round is not None and ep.committed_round >= 3  # the round-3 commit gate
    kinds_r1 = {a.kind for a in ep.rounds[0].selected}
    assert "add_contradiction_edge" in kinds_r1 or "add_dependency_edge" in kinds_r1  # round 1 expands structure
    assert ep.rounds[-1].signals["maturity"] > signals(ep.seed_graph)["maturity"]
    prop = synthesize_proposal(ep.final)
    assert prop.problem and prop.hypothesis and prop.method and prop.experiments
    assert prop.references and all("@" in r for r in prop.references)
    for ref in prop.references:  # every cited object is registered in the store
        assert kb.store.get_row(ref.split(" @ ")[0]) is not None
    path = tmp_path / "ep.json"
    ep.save(path)
    loaded = Episode.load(path)
    assert graph_fingerprint(replay(loaded)) == graph_fingerprint(loaded.final) == graph_fingerprint(ep.final)
    assert ep.rounds[0].active_roles == list(ROLES) and set(ep.final.branches) == set(ROLES)
    for rec in ep.rounds:  # only roles the gate activated acted, and the final graph says who sat the last round out
        assert {a.role for a in rec.selected} <= set(rec.active_roles)
    assert {r for r, b in ep.final.branches.items() if b.frozen} == set(ROLES) - set(ep.rounds[-1].active_roles)
    for nid, node in ep.final.nodes.items():
        if node.role in ROLES:
            assert node.branch == node.role and nid in ep.final.branches[node.role].nodes
    seq = run_episode("part-of-speech tagging", HeuristicTeacher(), kb, rounds=3, mode="sequential")
    assert graph_fingerprint(replay(seq)) == graph_fingerprint(seq.final)


def test_critic_trains_and_infers_on_cpu(kb):
    emb = TfidfSvdEmbedder(dim=32)
    emb.fit(["problem hypothesis method evaluation risk repair evidence tagging parsing translation speech"] * 3 +
            ["add support edge", "attach evidence", "propose repair", "skip", "add dependency edge"])
    edits, commits = profile(["part-of-speech tagging", "machine translation"], kb, rounds=3)
    assert edits and commits and all(0 <= c < len(s) for _, s, c in edits)
    critic = GraphCritic(emb.dim)
    hist = critic.train(edits, commits, emb, epochs=3)
    assert hist["epoch_2"] < hist["epoch_0"]  # the loss goes down on the profiled examples
    g, slate, _ = edits[0]
    scores = critic.score_slate(g, slate, emb)
    assert len(scores) == len(slate) and 0 <= critic.commit_probability(g, emb) <= 1
    learned = LearnedController(critic, emb)
    ep = run_episode("speech recognition", learned, kb, rounds=3)
    assert ep.controller == "learned" and learned.fallbacks == 0
    chosen = [a for r in ep.rounds for a in r.selected]
    assert chosen and all(a.source == "learned" for a in chosen)
    fallback = LearnedController(None, emb)  # missing weights: the heuristic decides, and it is counted
    run_episode("speech recognition", fallback, kb, rounds=3)
    assert fallback.fallbacks > 0


def test_the_shipped_critic_loads_and_decides_and_its_absence_is_said(kb, tmp_path):
    from scholarstack.ideas.critic import SHIPPED_WEIGHTS, shipped_critic
    from scholarstack.index.embed import MiniLMEmbedder

    critic, note = shipped_critic()
    assert critic is not None, f"{SHIPPED_WEIGHTS} is missing: run `make models`"
    assert SHIPPED_WEIGHTS.stat().st_size < 5_000_000 and critic.card["embedder"] == "minilm" and "dev edit accuracy" in note
    learned = LearnedController(critic, MiniLMEmbedder())
    ep = run_episode("speech recognition", learned, kb, rounds=4)
    assert learned.fallbacks == 0 and all(a.source == "learned" for r in ep.rounds for a in r.selected)
    assert {a.kind for a in ep.rounds[0].selected} <= ROUND_ONE_KINDS
    missing, why = shipped_critic(tmp_path / "none.pt")
    assert missing is None and "heuristic teacher decides" in why
    import torch

    torch.save({"text_dim": 384, "state": {}, "card": {}}, tmp_path / "old.pt")  # weights of another architecture
    unfit, why = shipped_critic(tmp_path / "old.pt")
    assert unfit is None and "do not fit this critic" in why and "heuristic teacher decides" in why


class FixedCritic:
    """Scores a slate by kind (what the controller's calibration and safeguards act on)."""

    def __init__(self, by_kind):
        self.by_kind = by_kind

    def score_slate(self, graph, slate, embedder):
        return [self.by_kind.get(a.kind, 0.0) for a in slate]

    def commit_probability(self, graph, embedder):
        return 0.5


def test_the_learned_controller_calibrates_within_bounds_and_its_safeguards_hand_over_to_the_teacher():
    g = backbone()
    slate = validate_slate(g, [Action(round=2, role="MechanismProposer", kind="add_dependency_edge", targets=["met1", "hyp1"]),
                               Action(round=2, role="MechanismProposer", kind="add_support_edge", targets=["met1", "hyp1"])])
    teacher = HeuristicTeacher().choose(g, slate)
    assert teacher.kind == "add_support_edge"  # grounding is what the bare backbone lacks most
    close = LearnedController(FixedCritic({"add_dependency_edge": 1.05, "add_support_edge": 1.0}), None)
    assert close.choose(g, slate).key() == teacher.key() and close.kept_teacher == 1  # a low-margin swap of kind is refused
    sure = LearnedController(FixedCritic({"add_dependency_edge": 5.0, "add_support_edge": 0.0}), None)
    assert sure.choose(g, slate).kind == "add_dependency_edge" and sure.kept_teacher == 0  # a clear margin overrides
    immature = {"grounding": 0.2, "contradiction_load": 0.6, "maturity": 0.3}
    bias = LearnedController.edit_bias(immature, slate, [0.0, 2.0, -1.0])
    assert bias == pytest.approx([0.0, 0.3, 0.0])  # only the grounding edit is pushed, by a tenth of the score range
    mature = {"grounding": 0.9, "contradiction_load": 0.0, "maturity": 0.9}
    assert LearnedController.edit_bias(mature, slate, [0.0, 2.0, -1.0]) == pytest.approx([-0.3, -0.3, 0.0])  # all but skip held back
    assert LearnedController.edit_bias({"grounding": 0.6, "contradiction_load": 0.2, "maturity": 0.5}, slate, [0, 1, 2]) == [0.0] * 3
    g.add_node("Hypothesis", "an outsider's claim", "Outsider", 1)  # a role the critic has no embedding for
    odd = LearnedController(FixedCritic({}), None)
    assert odd.choose(g, slate).key() == HeuristicTeacher().choose(g, slate).key()
    assert odd.fallbacks == 1 and "Outsider" in odd.unmapped[0]


def test_random_controller_and_untyped_ablation(kb):
    ep = run_episode("dependency parsing", RandomController(1), kb, rounds=3, typed=False)
    assert not ep.final.typed and {ep.final.visible_type(e) for e in ep.final.edges} <= {"related_to"}
    for seed in range(2):  # whatever a controller picks, round 1 only adds structure
        ep = run_episode("dependency parsing", RandomController(seed), kb, rounds=2)
        assert {a.kind for a in ep.rounds[0].selected} <= ROUND_ONE_KINDS


class ScriptedModel:
    """A stand-in for the model that answers every role with the same edits (what validation sees)."""

    def __init__(self, edits, fail: bool = False):
        self.edits, self.fail, self.prompts = edits, fail, []

    def structured(self, prompt, response_model, **_):
        from scholarstack.llm.client import LLMOutputError
        from scholarstack.llm.usage import Usage

        if self.fail or response_model.__name__ != "RoleProposal":  # the seed falls back to its rules
            raise LLMOutputError("the reply did not match the schema")
        self.prompts.append(prompt)
        return response_model(edits=self.edits), Usage()


def test_roles_as_agents_keep_only_admissible_edits_and_fall_back_when_the_model_fails(kb):
    from scholarstack.ideas.agents import ProposedEdit, proposed_slate
    from scholarstack.ideas.roles import seed_graph

    g = seed_graph("part-of-speech tagging", kb)
    ids = {n.type: n.id for n in g.nodes.values()}
    edits = [ProposedEdit(kind="add_dependency_edge", node=ids["Method"], other=ids["Hypothesis"], why="operationalises"),
             ProposedEdit(kind="add_support_edge", node="n99", other=ids["Hypothesis"]),  # an id the graph lacks
             ProposedEdit(kind="add_contradiction_edge", node=ids["Method"], text="Rare words may defeat the tagger.")]
    slate, failure = proposed_slate(ScriptedModel(edits), g, "FeasibilityCritic", 2, kb)
    assert failure is None and [a.kind for a in slate] == ["add_dependency_edge", "add_contradiction_edge"]
    risk = slate[1].payload["new_node"]
    assert risk["type"] == "Risk" and all(kb.store.get_row(e["object_id"]) for e in risk["evidence"])  # evidence is registered objects
    model = ScriptedModel(edits)
    ep = run_episode("part-of-speech tagging", HeuristicTeacher(), kb, rounds=2, client=model)
    assert ep.agents["calls"] == len(model.prompts) and ep.agents["failures"] == []
    assert "Rare words may defeat the tagger." not in [a.payload.get("new_node", {}).get("text") for a in ep.rounds[0].selected]  # round 1: no new nodes
    broken = run_episode("part-of-speech tagging", HeuristicTeacher(), kb, rounds=2, client=ScriptedModel([], fail=True))
    assert broken.agents["fallbacks"] == broken.agents["calls"] == len(broken.agents["failures"]) > 0
    assert all("did not match the schema" in f for f in broken.agents["failures"])
    assert broken.rounds and any(r.selected for r in broken.rounds)  # the rule-based slates carried the episode


def test_the_model_writes_the_proposal_citing_only_what_the_graph_holds(kb):
    from scholarstack.ideas.proposal import WrittenProposal, write_proposal

    class Writer:
        def __init__(self, out):
            self.out = out

        def structured(self, prompt, response_model, **_):
            from scholarstack.llm.client import LLMOutputError
            from scholarstack.llm.usage import Usage

            if self.out is None:
                raise LLMOutputError("the reply did not match the schema")
            return self.out, Usage()

    g = run_episode("part-of-speech tagging", HeuristicTeacher(), kb, rounds=3).final
    node = next(iter(g.nodes))
    out = WrittenProposal(problem="Unknown words hurt taggers.", hypothesis="Suffix features help.", method="Add suffix tries.",
                          experiments=["Tag the WSJ test set."], cites=[node, "E1", "E99", "fac_forged"])
    prop = write_proposal(g, Writer(out))
    assert prop.written_by == "model" and prop.problem == "Unknown words hurt taggers." and prop.cited[0] == node
    assert all(c == node or "@" in c for c in prop.cited)  # evidence keys resolve to object @ locators
    assert "E99" in prop.notes[0] and "fac_forged" in prop.notes[0]  # citations to nothing removed, and said
    assert prop.references == synthesize_proposal(g).references  # references stay what the graph holds
    failed = write_proposal(g, Writer(None))
    assert failed.written_by == "rules" and "invalid" in failed.notes[0] and failed.problem == synthesize_proposal(g).problem


@pytest.mark.llm
def test_episode_with_local_llm(kb, llm_server, tmp_path):
    client = local_llm(llm_server, tmp_path, max_tokens=400)
    ep = run_episode("part-of-speech tagging", HeuristicTeacher(), kb, rounds=2, client=client)  # round 1: all five roles
    # The roles proposed with the model: every call is counted, a proposal that was invalid or held
    # nothing admissible is said, and whatever was selected targets nodes the graph has.
    assert ep.agents["calls"] >= 5 and ep.agents["fallbacks"] >= len(ep.agents["failures"])
    for r in ep.rounds:
        assert all(t in ep.final.nodes for a in r.selected for t in a.targets)
    texts = [n.text for n in ep.seed_graph.nodes.values()]
    assert len(texts) == 6 and all(0 < len(t) <= 300 for t in texts)  # model-written (or fallback) seed within bounds
    assert graph_fingerprint(replay(ep)) == graph_fingerprint(ep.final)
    prop = write_proposal(ep.final, client)  # whatever it wrote, every citation it kept is in the graph
    assert prop.written_by in ("model", "rules") and (prop.written_by == "model" or prop.notes)
    assert all(c in ep.final.nodes or " @ " in c for c in prop.cited)
    judged = judge_with_model(prop, client)
    assert judged.method == "llm rubric" and set(judged.scores) == set(CRITERIA)
    assert all(v is None for v in judged.scores.values()) == ("error" in judged.reasons)  # scores, or the failure recorded
    assert all(v is None or 1 <= v <= 5 for v in judged.scores.values())


def test_offline_judge_computes_what_it_can_and_says_what_it_cannot(kb):
    ep = run_episode("part-of-speech tagging", HeuristicTeacher(), kb, rounds=4)
    judged = judge_offline(synthesize_proposal(ep.final), ep.final, kb.store)
    s = judged.scores
    assert judged.method == "offline proxies" and 0 <= s["grounding"] <= 1 and 0 <= s["novelty"] <= 1
    assert s["context_adherence"] == 1.0  # the topic's words are in the problem and method
    assert s["significance"] is None and "LLM rubric" in judged.reasons["significance"]
    assert s["feasibility"] is not None or judged.reasons["feasibility"] == "no risk was examined"
