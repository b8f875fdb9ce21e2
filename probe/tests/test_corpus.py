"""The corpus (tests/corpus): each script run unchanged under the probe finds the syncs its truth
file names, at their lines, with their counts and phases, and no other; its steps counted; its
output and exit code those of the plain run (corpus/check.py holds the checks, for the GPU too)."""
import os
import sys

import pytest

from conftest import probe_env

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus"))
import check  # noqa: E402  (corpus/check.py)


@pytest.mark.parametrize("name", check.names())
def test_a_corpus_script_s_syncs_are_found_where_they_are(tmp_path, name):
    result = check.check(name, str(tmp_path / "run"), probe_env())
    assert not result["problems"], result["problems"]
    assert result["found"] == result["expected"]