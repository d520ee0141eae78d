"""Sentences chosen or checked from their numbers (reliability.claims)."""

import pytest

from reliability import claims
from reliability.i18n import language


def test_check_names_the_claim_and_its_numbers():
    claims.check("the fit lies inside the band", True)
    with pytest.raises(claims.ClaimFailed, match="inside the band.*value = 0.291"):
        claims.check("the fit lies inside the band", 0.291 <= 0.276, value=0.291)


def test_check_refuses_a_test_that_is_not_true_or_false():
    with pytest.raises(ValueError, match="holds must be True or False"):
        claims.check("the rate is flat", 0.5)


def test_where_and_inside_include_the_ends():
    assert [claims.where(v, 0.241, 0.276) for v in (0.2, 0.241, 0.25, 0.276, 0.291)] \
        == ["below", "inside", "inside", "inside", "above"]
    assert claims.inside(0.25, 0.241, 0.276) and not claims.inside(0.291, 0.241, 0.276)
    with pytest.raises(ValueError, match="low must not exceed high"):
        claims.where(0.5, 0.6, 0.4)
    with pytest.raises(ValueError, match="value must be a finite number"):
        claims.where(float("nan"), 0, 1)


def test_trend_reads_the_tolerance():
    assert claims.trend(0.0162, 0.0198, 0.005) == "flat"
    assert claims.trend(0.0162, 0.0198, 0.001) == "rising"
    assert claims.trend(0.0198, 0.0162, 0.001) == "falling"
    with pytest.raises(ValueError, match="tolerance must be"):
        claims.trend(0, 1, -0.1)


def test_change_says_flat_only_when_the_interval_holds_zero():
    word, (low, high) = claims.change((162, 10_000), (198, 10_000))
    assert word == "flat" and low < 0 < high
    word, (low, high) = claims.change((162, 10_000), (400, 10_000))
    assert word == "rising" and 0 < low < 0.0238 < high
    assert claims.change((400, 10_000), (162, 10_000))[0] == "falling"
    with pytest.raises(ValueError, match="after must be a pair"):
        claims.change((1, 10), 0.5)
    with pytest.raises(ValueError, match=r"before\[1\] \(trials\)"):
        claims.change((11, 10), (1, 10))


def test_same_compares_value_by_value():
    assert claims.same((0.875, 0.85), (0.875, 0.85))
    assert not claims.same((0.875, 0.85), (1.0, 0.858), tolerance=0.01)
    with pytest.raises(ValueError, match="same length"):
        claims.same((1, 2), (1,))


def test_choose_fills_the_sentence_written_for_the_case():
    sentences = {"flat": "stays at {after:.1%}", "rising": "rises to {after:.1%}"}
    assert claims.choose("rising", sentences, after=0.02) == "rises to 2.0%"
    with pytest.raises(ValueError, match="no sentence for the case 'falling'"):
        claims.choose("falling", sentences)


def test_words_are_translated():
    assert claims.word("flat") == "stays flat"
    with language("ru"):
        assert claims.word("flat") != "stays flat"
    with pytest.raises(ValueError, match="case must be one of"):
        claims.word("sideways")


def test_the_slide_figure_titles_what_its_caller_measured():
    import matplotlib.pyplot as plt
    import numpy as np

    from reliability.figures.ladder import plot_slide

    days = np.arange(3)
    shares = np.array([0.01, 0.02, 0.05])
    args = (days, shares, shares * 0.9, shares * 1.1, np.full(3, 0.02), None)
    fig = plot_slide(*args, rung_name="deterministic rules", rules_trend="rising",
                     error_trend="rising")
    title = " ".join(fig.axes[0].get_title().split())    # wrapped to fit: its words
    plt.close(fig)
    assert "share rises" in title and "error rate rises" in title
    assert "flat" not in title
    with language("ru"):
        fig = plot_slide(*args, rung_name="deterministic rules", rules_trend="rising",
                         error_trend="flat")
        title = " ".join(fig.axes[0].get_title().split())
        plt.close(fig)
    assert "растёт" in title and "не меняется" in title
    with pytest.raises(ValueError, match="error_trend must be one of"):
        plot_slide(*args, rung_name="deterministic rules", rules_trend="rising",
                   error_trend="steady")
