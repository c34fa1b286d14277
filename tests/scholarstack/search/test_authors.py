"""Author names read from raw reference strings, as the co-authorship distance needs them."""

from __future__ import annotations

import pytest

from scholarstack.search.authors import author_key, reference_authors


@pytest.mark.parametrize("raw, authors", [
    ("J. P. Perdew, K. Burke, and M. Ernzerhof, Phys. Rev. Lett. 77, 3865 (1996).", ["perdew j", "burke k", "ernzerhof m"]),
    ("H.-D. Meyer and W. H. Miller, “A classical analog for electronic degrees of freedom,” J. Chem. Phys. 70 (1979).",
     ["meyer h", "miller w"]),
    ("Ravenhall D. G., Pethick C. J., Wilson J. R., 1983, Phys. Rev. Lett., 50, 2066", ["ravenhall d", "pethick c", "wilson j"]),
    ("Kristensen, L. E., van Dishoeck, E. F., Bergin, E. A., et al. 2012, , 542, A8", ["kristensen l", "van dishoeck e", "bergin e"]),
    ("Lee, J.-J., & Gullikson, K. 2016, plp: v2.1 alpha 3, Zenodo", ["lee j", "gullikson k"]),
    ("Ji Gao, Jack Lanchantin, Mary Lou Soffa, and Yanjun Qi. Black-box generation of adversarial text sequences.",
     ["gao j", "lanchantin j", "soffa m", "qi y"]),
    ("M. R. Querry, Optical Constants, Tech. Rep. (Missouri University, 1984).", ["querry m"]),  # a title is no name
    ("“http://www.openconfig.net.”", []),
    ("—. 2018, Living Reviews in Solar Physics, 15", []),
])
def test_reference_strings_give_their_authors_and_nothing_else(raw, authors):
    assert reference_authors(raw) == authors


def test_author_keys_match_across_how_a_name_is_written():
    assert author_key("Michelen", "Marcus") == author_key("michelen", "M.") == "michelen m"
    assert reference_authors("M. Michelen and X.-T. Vu, Zeros of random polynomials, 2022.")[0] == author_key("Michelen", "Marcus")
