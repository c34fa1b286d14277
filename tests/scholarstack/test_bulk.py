import gc

from scholarstack.bulk import long_lived, paused_gc


def test_paused_gc_pauses_the_collector_and_restores_it():
    assert gc.isenabled()
    with paused_gc():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()  # a caller's own pause is kept
    finally:
        gc.enable()


def test_long_lived_moves_what_it_loads_out_of_the_collectors_view():
    before = gc.get_freeze_count()
    with long_lived():
        assert not gc.isenabled()  # nothing is collected while loading
        kept = [[i] for i in range(1000)]  # lists: containers the collector tracks
    assert gc.isenabled()
    assert gc.get_freeze_count() >= before + len(kept)  # each container is frozen
    collectable = {id(o) for g in range(3) for o in gc.get_objects(generation=g)}
    assert not any(id(k) in collectable for k in kept)  # no collection scans them again
    del kept  # still freed by reference counting
