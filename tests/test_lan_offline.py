"""The parts of LAN discovery that need no network: which addresses a server is reachable on, what
it would advertise, how a browser reads what it found (docs/PROTOCOL.md, section 12). Nothing here
opens a multicast socket: ifaddr and zeroconf are replaced where a call could reach them."""

from __future__ import annotations

import io
import ipaddress
import threading
from typing import ClassVar

import ifaddr
import pytest
import trio
import trio.testing
import zeroconf

from neveryu.client import discovery, server_list
from neveryu.server import addresses, advertise


def _adapters() -> list[ifaddr.Adapter]:
    return [
        ifaddr.Adapter("lo", "lo", [ifaddr.IP("127.0.0.1", 8, "lo"), ifaddr.IP(("::1", 0, 0), 128, "lo")], 1),
        ifaddr.Adapter("eth0", "eth0", [ifaddr.IP("192.168.1.20", 24, "eth0")], 2),
        ifaddr.Adapter("wlan0", "wlan0", [ifaddr.IP("10.1.0.7", 16, "wlan0")], 3),
    ]


@pytest.fixture
def machine(monkeypatch):
    monkeypatch.setattr(ifaddr, "get_adapters", _adapters)


@pytest.fixture
def no_multicast(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("zeroconf.Zeroconf was opened")

    monkeypatch.setattr(zeroconf, "Zeroconf", refuse)


@pytest.mark.parametrize("host", [None, "", "0.0.0.0", "::"])
def test_every_interface_means_every_non_loopback_ipv4_address(machine, host):
    assert addresses.reachable_addresses(host) == [
        addresses.Reachable("192.168.1.20", "eth0", 24),
        addresses.Reachable("10.1.0.7", "wlan0", 16),
    ]


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "localhost"])
def test_loopback_hosts_are_reachable_nowhere(machine, host):
    assert addresses.reachable_addresses(host) == []


def test_one_address_is_reachable_on_its_interface_only(machine):
    assert addresses.reachable_addresses("10.1.0.7") == [addresses.Reachable("10.1.0.7", "wlan0", 16)]


def test_start_lines_name_each_address_and_the_firewall_port(machine):
    assert addresses.describe_reachable("0.0.0.0", 7420) == [
        "Listening on every interface, port 7420. Others on the network can join with:",
        "  neveryu join 192.168.1.20:7420    (eth0)",
        "  neveryu join 10.1.0.7:7420    (wlan0)",
        "(a firewall on this machine must let in TCP port 7420)",
    ]


def test_start_lines_on_loopback_say_only_this_machine_can_join(machine):
    assert addresses.describe_reachable("127.0.0.1", 5000) == [
        "Listening on 127.0.0.1 port 5000: only this machine can join"
        " (serve --host 0.0.0.0 lets others on the network join)."
    ]


def test_start_lines_without_a_network(monkeypatch):
    monkeypatch.setattr(ifaddr, "get_adapters", lambda: _adapters()[:1])
    assert addresses.describe_reachable("", 7420) == [
        "Listening on every interface, port 7420, but this machine has no network interface"
        " up other than loopback: only this machine can join."
    ]


def test_txt_record_holds_name_protocol_and_counts():
    assert advertise.txt_properties("dorm", tables=2, free=5, proto=1) == {
        "txtvers": "1",
        "name": "dorm",
        "proto": "1",
        "tables": "2",
        "free": "5",
    }
    with pytest.raises(ValueError, match="counts must be >= 0"):
        advertise.txt_properties("dorm", tables=-1, free=0)


def test_instance_label_has_no_dots_and_fits_one_dns_label():
    assert advertise.instance_label("a.b  c") == "a b c"
    assert advertise.instance_label(" . ") == "neveryu"
    label = advertise.instance_label("я" * 40)  # 80 bytes of UTF-8
    assert label == "я" * 31 and len(label.encode()) == 62


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
async def test_a_server_on_loopback_opens_no_multicast_socket(machine, no_multicast, host):
    async with advertise.advertising("x", host, 7420, tables=1, free=2) as ad:
        assert ad.addresses == ()
        ad.update(tables=3, free=0)
        await ad.flushed()
        assert not ad.registered.is_set()


async def test_no_advertise_opens_no_multicast_socket(machine, no_multicast):
    async with advertise.advertising("x", "0.0.0.0", 7420, enabled=False) as ad:
        assert ad.addresses == ()


async def test_update_rejects_negative_counts(machine, no_multicast):
    async with advertise.advertising("x", "127.0.0.1", 7420) as ad:
        with pytest.raises(ValueError, match="counts must be >= 0"):
            ad.update(tables=0, free=-1)


def _info(properties: dict, addrs: list[str]) -> zeroconf.ServiceInfo:
    return zeroconf.ServiceInfo(
        discovery.SERVICE_TYPE,
        f"Dorm-2.{discovery.SERVICE_TYPE}",
        port=7421,
        properties=properties,
        parsed_addresses=addrs,
        server="h.local.",
    )


def test_a_found_server_prefers_an_address_on_our_network():
    nets = [ipaddress.IPv4Network("192.168.1.0/24")]
    info = _info(
        {"txtvers": "1", "name": "Dorm", "proto": "1", "tables": "2", "free": "3"},
        ["10.9.9.9", "192.168.1.5"],
    )
    assert discovery.server_from_info(info, nets) == discovery.Server(
        name="Dorm",
        address="192.168.1.5",
        port=7421,
        tables=2,
        free=3,
        proto=1,
        addresses=("10.9.9.9", "192.168.1.5"),
        instance="Dorm-2",
    )


def test_a_found_server_with_a_bad_txt_record_keeps_what_it_can():
    info = _info({"tables": "-1", "free": "٣", "proto": "x"}, ["10.9.9.9"])
    server = discovery.server_from_info(info, [])
    assert (server.name, server.address, server.tables, server.free, server.proto) == (
        "Dorm-2",
        "10.9.9.9",
        None,
        None,
        None,
    )


def test_interface_addresses_by_name_or_address(machine):
    assert discovery.interface_addresses("wlan0") == ["10.1.0.7"]
    assert discovery.interface_addresses("10.1.0.7") == ["10.1.0.7"]
    with pytest.raises(ValueError, match=r"no network interface named 'eth9' \(there are: eth0, lo, wlan0\)"):
        discovery.interface_addresses("eth9")


def test_discover_rejects_a_timeout_of_zero(no_multicast):
    with pytest.raises(ValueError, match="timeout must be > 0"):
        discovery.discover(0)


def _two_servers() -> list[discovery.Server]:
    return [
        discovery.Server("Dorm", "192.168.1.5", 7420, 2, 3, 1, ("192.168.1.5",), "Dorm"),
        discovery.Server("Kitchen table", "192.168.1.9", 7500, None, None, None, ("192.168.1.9",), "k"),
    ]


def test_servers_listing_is_a_table():
    assert server_list.table_lines(_two_servers()) == [
        "NAME           ADDRESS           TABLES  FREE SEATS  PROTOCOL",
        "Dorm           192.168.1.5:7420  2       3           1",
        "Kitchen table  192.168.1.9:7500  ?       ?           ?",
    ]


def test_pick_asks_again_until_a_number_in_range():
    answers = iter(["7", "x", "2"])
    prompts = []
    out = io.StringIO()

    chosen = server_list.pick(_two_servers(), lambda p: prompts.append(p) or next(answers), out)

    assert chosen.name == "Kitchen table"
    assert prompts == ["Join which server? [1-2, Enter: 1, q: quit] "] * 3
    assert out.getvalue().splitlines() == [
        "#  NAME           ADDRESS           TABLES  FREE SEATS  PROTOCOL",
        "1  Dorm           192.168.1.5:7420  2       3           1",
        "2  Kitchen table  192.168.1.9:7500  ?       ?           ?",
        "Type a number from 1 to 2, or q.",
        "Type a number from 1 to 2, or q.",
    ]


@pytest.mark.parametrize(("answer", "name"), [("", "Dorm"), ("q", None), (EOFError, None)])
def test_pick_enter_takes_the_first_and_q_or_end_of_input_gives_up(answer, name):
    def ask(prompt):
        if answer is EOFError:
            raise EOFError
        return answer

    chosen = server_list.pick(_two_servers(), ask, io.StringIO())
    assert (chosen.name if chosen else None) == name


def test_browse_and_pick_with_nothing_found_says_what_to_do(monkeypatch):
    monkeypatch.setattr(discovery, "discover", lambda timeout, interface: [])
    out = io.StringIO()

    assert server_list.browse_and_pick(2.5, None, lambda p: "", out) is None

    text = out.getvalue()
    assert text.startswith("Looking for servers on the local network (2.5 s)...\n")
    assert "No neveryu server answered on the local network within 2.5 s." in text
    assert "neveryu join HOST[:PORT]" in text
    assert "firewall" in text and "another subnet" in text and "blocks multicast" in text


def test_lobby_counts_free_seats_only_at_waiting_tables():
    def seat(name):
        return {"seat": 0, "name": name, "bot": None, "ready": False, "away": False}

    tables = [
        {"id": 1, "state": "waiting", "seats": [seat("ann"), seat(None), seat(None)]},
        {"id": 2, "state": "playing", "seats": [seat("bob"), seat(None)]},
        {"id": 3, "state": "waiting", "seats": [seat("bot 1"), seat(None)]},
    ]
    assert advertise.lobby_counts(tables) == (3, 3)
    assert advertise.lobby_counts([]) == (0, 0)


def test_what_a_server_advertises_is_what_a_browser_reads():
    assert discovery.SERVICE_TYPE == advertise.SERVICE_TYPE
    info = _info(advertise.txt_properties("Dorm «4»", tables=3, free=1, proto=1), ["192.168.1.5"])
    server = discovery.server_from_info(info, [])
    assert (server.name, server.tables, server.free, server.proto) == ("Dorm «4»", 3, 1, 1)


def test_start_lines_for_one_ipv6_address_give_it_in_brackets(machine):
    assert addresses.describe_reachable("fd00::2", 7420) == [
        "Listening on fd00::2 port 7420. Others on the network can join with:",
        "  neveryu join [fd00::2]:7420",
        "(a firewall on this machine must let in TCP port 7420;"
        " only IPv4 addresses are announced on the LAN, so this one is not)",
    ]


class FakeZeroconf:
    """Stands in for zeroconf.Zeroconf: records calls; ``hold`` makes register and close block
    (in their worker threads) until released, like a network that does not answer."""

    made: ClassVar[list[FakeZeroconf]] = []
    hold = threading.Event()
    release = threading.Event()

    def __init__(self, interfaces, ip_version):
        self.interfaces = interfaces
        self.calls: list[tuple] = []
        FakeZeroconf.made.append(self)

    def _maybe_block(self):
        if FakeZeroconf.hold.is_set():
            FakeZeroconf.release.wait()

    def register_service(self, info, allow_name_change):
        self._maybe_block()
        self.calls.append(
            ("register", info.name, info.decoded_properties["tables"], info.decoded_properties["free"])
        )

    def update_service(self, info):
        self.calls.append(
            ("update", info.name, info.decoded_properties["tables"], info.decoded_properties["free"])
        )

    def close(self):
        self._maybe_block()
        self.calls.append(("close",))


@pytest.fixture
def fake_zeroconf(monkeypatch):
    FakeZeroconf.made.clear()
    FakeZeroconf.hold.clear()
    FakeZeroconf.release.clear()
    monkeypatch.setattr(zeroconf, "Zeroconf", FakeZeroconf)
    yield FakeZeroconf
    FakeZeroconf.release.set()  # let any blocked worker thread finish


async def test_advertising_registers_on_the_listening_addresses_and_announces_new_counts(
    machine, fake_zeroconf
):
    with trio.fail_after(5):
        async with advertise.advertising("dorm", "0.0.0.0", 7420, tables=1, free=2) as ad:
            await ad.registered.wait()
            ad.update(tables=2, free=0)
            ad.update(tables=2, free=1)
            await ad.flushed()
            assert ad.instance == "dorm"
    [zc] = fake_zeroconf.made
    assert zc.interfaces == ["192.168.1.20", "10.1.0.7"]
    name = f"dorm.{advertise.SERVICE_TYPE}"
    # The two updates came faster than one announcement: they are merged, the last one wins.
    assert zc.calls == [("register", name, "1", "2"), ("update", name, "2", "1"), ("close",)]


async def test_a_network_that_never_answers_delays_neither_start_nor_shutdown(machine, fake_zeroconf):
    fake_zeroconf.hold.set()
    with trio.fail_after(advertise.CLOSE_TIMEOUT + 2):
        async with advertise.advertising("dorm", "0.0.0.0", 7420) as ad:
            await trio.testing.wait_all_tasks_blocked()
            assert not ad.registered.is_set()  # still probing, in its thread
            started = trio.current_time()
        assert trio.current_time() - started <= advertise.CLOSE_TIMEOUT + 0.5


def test_pick_of_the_only_server_asks_whether_to_join_it():
    answers = iter(["2", ""])
    prompts = []
    out = io.StringIO()
    only = _two_servers()[:1]
    assert server_list.pick(only, lambda p: prompts.append(p) or next(answers), out) == only[0]
    assert prompts == ["Join this server? [Enter: yes, q: quit] "] * 2
    assert out.getvalue().splitlines()[-1] == "Press Enter to join it, or q."
