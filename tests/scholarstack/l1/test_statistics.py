"""Effect estimates, intervals and P values read as one quantity (SciFact's spellings)."""

from scholarstack.l1.offline import find_quantities
from scholarstack.l1.statistics import compact, estimates
from scholarstack.l1.study import effect
from scholarstack.models import Fact, FactType

ASPIRIN = ("Aspirin and/or NSAID use was associated with a lower risk of colorectal cancer among individuals with "
           "rs2965667-TT genotype (prevalence, 28% vs 38%; OR, 0.66 [95% CI, 0.61-0.70]; P = 7.7 × 10(-33)) but with a "
           "higher risk among those with rare (4%) TA or AA genotypes (prevalence, 35% vs 29%; OR, 1.89 [95% CI, 1.27-2.81]; P = .002).")


def test_each_estimate_keeps_its_own_interval_and_p_value():
    first, second = estimates(ASPIRIN)
    assert (first.measure, first.value, first.interval, first.p) == ("odds ratio", 0.66, "0.61-0.70 (95% CI)", "P = 7.7 × 10(-33)")
    assert (second.measure, second.value, second.interval, second.p) == ("odds ratio", 1.89, "1.27-2.81 (95% CI)", "P = .002")


def test_spellings_of_estimates_and_intervals():
    cases = {
        "Mortality fell (RR 0.71, 0.50-0.99; p=0.044).": ("relative risk", 0.71, "0.50-0.99", "P = 0.044"),
        "It was lower (adjusted OR, 0.50; 95% confidence interval [CI], 0.33-0.76).": ("adjusted odds ratio", 0.5, "0.33-0.76 (95% CI)", ""),
        "Risk rose (HR=6.04; 95% CI, 3.44 to 10.60).": ("hazard ratio", 6.04, "3.44-10.60 (95% CI)", ""),
        "The effect held (odds ratio [OR], 0.69; P = 6.2 × 10(-9)).": ("odds ratio", 0.69, "", "P = 6.2 × 10(-9)"),
        "Scores correlated (Rs = 0.81, p < 0.0001).": ("correlation", 0.81, "", "P < 0.0001"),
        "It was lower (HR 0.79 [0.65-0.96]).": ("hazard ratio", 0.79, "0.65-0.96", ""),
    }
    for text, want in cases.items():
        [e] = estimates(text)
        assert (e.measure, e.value, e.interval, e.p) == want, text
    assert estimates("We use OR and HR as features.") == [] and estimates("Accuracy was 96.7% (r = recall).") == []


def test_interval_bounds_levels_and_p_values_are_no_quantities():
    qs = find_quantities(ASPIRIN, "NSAID use")
    assert [(q.text, q.metric, q.interval) for q in qs[:2]] == [("0.66", "odds ratio", "0.61-0.70 (95% CI)"),
                                                               ("1.89", "odds ratio", "1.27-2.81 (95% CI)")]
    texts = [q.text for q in qs]
    assert "95%" not in texts and "0.61" not in texts and "0.70" not in texts and "7.7" not in texts
    assert {"28%", "38%"} <= set(texts)  # the prevalences are reported values
    fact = Fact(statement=ASPIRIN, subject="NSAID use", type=FactType.finding, quantities=qs, evidence=["P:1"])
    assert "0.66 odds ratio (0.61-0.70 (95% CI); P = 7.7 × 10(-33))" in effect(fact)


def test_compact_keeps_estimates_and_p_values_and_drops_what_qualifies_them():
    short = compact(ASPIRIN)
    assert "(prevalence, 28% vs 38%; OR, 0.66; P = 7.7 × 10(-33))" in short and "(prevalence, 35% vs 29%; OR, 1.89; P = .002)" in short
    assert "CI" not in short and "rare (4%)" in short
    assert compact("Sensitivity was 66% (95% CI, 62%-69%).") == "Sensitivity was 66%."
    assert compact("We enrolled adults (n = 5,755, 48% men).") == "We enrolled adults (48% men)."
    assert compact("Velocity rose (965 +/- 216 cm/sec; P = 0.0016).") == "Velocity rose (965 cm/sec; P = 0.0016)."
    plain = "TnT reaches 96.7% accuracy on the Penn Treebank (Table 5)."
    assert compact(plain) == plain


def test_the_gate_checks_an_estimates_interval_and_p_value_against_the_evidence():
    from scholarstack.models import Verification
    from scholarstack.verify import verify_fact

    qs = find_quantities(ASPIRIN, "Aspirin")
    fact = Fact(statement=ASPIRIN, subject="Aspirin", type=FactType.finding, quantities=qs, evidence=["P:1"])
    assert verify_fact(fact, ASPIRIN)[0] == Verification.passed
    forged = fact.model_copy(update={"quantities": [qs[0].model_copy(update={"interval": "0.41-0.50 (95% CI)"}), *qs[1:]]})
    verdict, note = verify_fact(forged, ASPIRIN)
    assert verdict == Verification.failed and "qualified by 0.41, 0.50" in note
