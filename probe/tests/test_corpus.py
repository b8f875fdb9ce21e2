"""The corpus (tests/corpus): each script run unchanged under the probe finds the syncs its truth
file names, at their lines, with their counts and phases, and no other; its steps counted; its
output and exit code those of the plain run (corpus/check.py holds the checks, for the GPU too)."""
import pytest

import check  # corpus/check.py, on the path conftest gives it
from conftest import probe_env


@pytest.mark.parametrize("name", check.names())
def test_a_corpus_script_s_syncs_are_found_where_they_are(tmp_path, name):
    result = check.check(name, str(tmp_path / "run"), probe_env())
    assert not result["problems"], result["problems"]
    assert result["found"] == result["expected"]