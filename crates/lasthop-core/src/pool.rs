//! Where packets live while they cross the network: one slab per run.
//!
//! A packet is written into a slot once, when it enters a link's queue, and
//! queues and links pass its 4-byte handle ([`PacketRef`]) from then on;
//! the slot is freed when the packet leaves the link (arrival or loss).
//! Freed slots are reused last-in first-out, so a new packet lands in
//! memory that was just in use (and is still in the cache), and the memory
//! a run touches is the packets in flight, not every queue's high-water
//! mark: with thousands of links, per-link rings of whole packets spread a
//! run over tens of megabytes and made the cost per event grow with the
//! number of flows (issue 9). ns-2 keeps a free list of packets for the
//! same reason (`Packet::alloc`/`Packet::free` in `common/packet.h`).

use crate::{Ecn, LlNotice, NodeId, Packet, PacketKind, SackBlocks, TcpHeader, Time, Timestamps};

/// A packet's place in a [`PacketPool`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PacketRef(u32);

/// A stored packet in one cache line: every field but the options only some
/// packets carry (SACK blocks, the SMART echo, timestamps), which live
/// beside the slots and are read only when the slot says it has them. A
/// whole [`Packet`] is two lines (its SACK blocks alone are 49 bytes), and
/// the slot of a packet that waited in a queue is rarely still in the cache.
/// One-bit fields share a byte ([`flag`]). The slot also holds the
/// arrival of the packet chained behind it ([`Chain`]). Sizes are 16 bits
/// (an IPv4 datagram's total length is, RFC 791 Sec. 3.1; scenarios hold
/// packets to 65,535 bytes), which leaves room for 32-bit node ids in one
/// line (issue 31).
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
struct Slot {
    uid: u64,
    seq: u64,
    ack: u64,
    flow: u32,
    size_bytes: u16,
    len: u16,
    wnd_bytes: u32,
    src: NodeId,
    dst: NodeId,
    kind: PacketKind,
    ecn: Ecn,
    /// The caller's, carried untouched (see [`PacketPool::put_tagged`]).
    tag: u32,
    /// The next packet of the [`Chain`] this one is in (`NIL`: the last).
    next: u32,
    /// That next packet's arrival time and event key, their low 32 bits
    /// (see [`Chain`]; in `due_aside` when `CTL_DUE_ASIDE`).
    next_at: u32,
    next_key: u32,
    flags: u8,
    /// The connection flags: bit 0 SYN, bit 1 FIN, bits 2-3 the LL-ELSN
    /// notice (the `flags` byte is full); bit 4 the mark a [`Chain`] keeps
    /// with the packet (a frame corrupted in transit); bit 5 a
    /// sender-window option (its value beside the slots: only seed 001's
    /// ACK reconstruction runs carry it); bit 6 the next packet's arrival
    /// is kept in full beside the slots; bit 7 the frame was lost to a
    /// link outage while on its medium or propagating.
    ctl: u8,
}

const NIL: u32 = u32::MAX;
const CTL_NOTICE: u8 = 0b1100;
const CTL_CHAIN_MARK: u8 = 1 << 4;
const CTL_SENDER_WINDOW: u8 = 1 << 5;
const CTL_DUE_ASIDE: u8 = 1 << 6;
const CTL_OUTAGE: u8 = 1 << 7;

/// A FIFO of packets in the pool, threaded through their slots: a link
/// direction's frames while they propagate, each with its arrival time, the
/// key of its arrival event and a mark (corrupted). A direction holds three
/// words and no buffer of its own: with thousands of links, a ring per
/// direction spread the frames in flight over megabytes that each
/// transmission and arrival missed in the cache (issue 9), where the slots
/// are reused last freed first and stay in it.
///
/// The first packet's arrival is its caller's pending event. Each later
/// packet's time and key are kept in the slot of the packet before it:
/// written when it joins, with that slot's `next`, and read when the packet
/// before it arrives, from the slot that arrival reads anyway. Kept in its
/// own slot or beside the slots they cost two more cache lines a frame
/// (one when it joins, one when its predecessor arrives), which with
/// thousands of links are not in the cache (issue 9). The slot has room
/// for their low 32 bits, and the full values follow from the time and the
/// next unused key when the predecessor arrives, as long as the packet
/// arrives less than 2^32 ns after it joined (else its arrival is kept in
/// full, beside the slots) and fewer than 2^32 keys were taken since it
/// joined (which [`PacketPool::chain_keep_keys`], called by the simulator
/// every 2^30 keys, makes sure of).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chain {
    head: u32,
    tail: u32,
    len: u32,
}

impl Chain {
    pub const EMPTY: Chain = Chain { head: NIL, tail: NIL, len: 0 };

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Default for Chain {
    fn default() -> Chain {
        Chain::EMPTY
    }
}

/// A chained packet's time and key in full ([`PacketPool::chain_push`]).
#[derive(Clone, Copy, Debug, Default)]
struct Due {
    at: Time,
    key: u64,
}

/// The value whose low 32 bits are `low`, at `base` or less and above
/// `base - 2^32` (the key of a chained packet from the next unused one).
#[inline(always)]
fn below(base: u64, low: u32) -> u64 {
    base - u64::from((base as u32).wrapping_sub(low))
}

/// The value whose low 32 bits are `low`, at `base` or more and below
/// `base + 2^32` (the arrival time of a chained packet from now).
#[inline(always)]
fn from(base: u64, low: u32) -> u64 {
    base + u64::from(low.wrapping_sub(base as u32))
}

/// The arrival of the packet chained behind slot `s`, from the low words
/// the slot keeps ([`Chain`]): `now` is no later than that arrival and less
/// than 2^32 ns before it, `next_key` the next unused key, less than 2^32
/// keys after its own.
#[inline(always)]
fn next_due(s: &Slot, now: Time, next_key: u64) -> Due {
    Due { at: Time(from(now.ns(), s.next_at)), key: below(next_key, s.next_key) }
}

/// Bits of [`Slot::flags`].
mod flag {
    pub const ELN: u8 = 1;
    pub const RETRANSMIT: u8 = 1 << 1;
    pub const ECE: u8 = 1 << 2;
    pub const CWR: u8 = 1 << 3;
    pub const FR_REQUEST: u8 = 1 << 4;
    pub const HAS_SACK: u8 = 1 << 5;
    pub const HAS_ECHO: u8 = 1 << 6;
    pub const HAS_TS: u8 = 1 << 7;
}

#[inline(always)]
fn bit(on: bool, f: u8) -> u8 {
    if on {
        f
    } else {
        0
    }
}

#[derive(Clone, Debug, Default)]
pub struct PacketPool {
    slots: Vec<Slot>,
    /// SACK blocks and SMART echo of slot i, valid when its flag is set.
    sacks: Vec<SackBlocks>,
    echoes: Vec<u64>,
    /// A packet's timestamps, and beside them the rate feedback of a
    /// WTCP ack (0 for none): WTCP needs the timestamp option, so its rate
    /// rides in this entry, and a packet without timestamps costs nothing.
    timestamps: Vec<(Timestamps, u32)>,
    sender_windows: Vec<u16>,
    /// The arrival of the packet chained behind slot i in full, when its
    /// `CTL_DUE_ASIDE` is set.
    due_aside: Vec<Due>,
    free: Vec<u32>,
}

impl PacketPool {
    pub fn new() -> PacketPool {
        PacketPool::default()
    }

    /// Store `pkt`; its handle stays valid until [`PacketPool::take`].
    #[inline]
    pub fn put(&mut self, pkt: Packet) -> PacketRef {
        self.put_tagged(pkt, 0)
    }

    /// Store `pkt` with a word of the caller's, read back by
    /// [`PacketPool::tag`] from the slot the packet is read from anyway
    /// (the simulator keeps the hop a packet is crossing there, so that an
    /// arrival need not look its path up). Always inlined: as a call the
    /// packet goes by value through a copy (two cache lines), which a
    /// second caller in the simulator (a link held down) once made LLVM
    /// choose for the per-packet one (lan: +3.4 % instructions).
    #[inline(always)]
    pub fn put_tagged(&mut self, pkt: Packet, tag: u32) -> PacketRef {
        // Every field named: a new one must be given a place here.
        let Packet {
            uid,
            flow,
            kind,
            src,
            dst,
            size_bytes,
            ecn,
            tcp:
                TcpHeader {
                    seq,
                    len,
                    ack,
                    wnd_bytes,
                    sack,
                    smart_echo,
                    eln,
                    is_retransmit,
                    ece,
                    cwr,
                    fr_request,
                    sender_window,
                    ts,
                    syn,
                    fin,
                    ll_notice,
                    rate_bytes_per_s,
                },
        } = pkt;
        debug_assert!(
            size_bytes.max(len) <= u32::from(u16::MAX),
            "an IPv4 datagram: {size_bytes} bytes, {len} of payload"
        );
        let slot = Slot {
            uid,
            seq,
            ack,
            flow,
            size_bytes: size_bytes as u16,
            len: len as u16,
            wnd_bytes,
            src,
            dst,
            kind,
            ecn,
            tag,
            next: NIL,
            next_at: 0,
            next_key: 0,
            flags: bit(eln, flag::ELN)
                | bit(is_retransmit, flag::RETRANSMIT)
                | bit(ece, flag::ECE)
                | bit(cwr, flag::CWR)
                | bit(fr_request, flag::FR_REQUEST)
                | bit(!sack.is_empty(), flag::HAS_SACK)
                | bit(smart_echo.is_some(), flag::HAS_ECHO)
                | bit(ts.is_some(), flag::HAS_TS),
            ctl: u8::from(syn)
                | u8::from(fin) << 1
                | (ll_notice as u8) << 2
                | if sender_window.is_some() { CTL_SENDER_WINDOW } else { 0 },
        };
        let i = match self.free.pop() {
            Some(i) => {
                self.slots[i as usize] = slot;
                i as usize
            }
            None => {
                self.slots.push(slot);
                self.slots.len() - 1
            }
        };
        let n = self.slots.len();
        if !sack.is_empty() {
            set_beside(&mut self.sacks, n, i, sack);
        }
        if let Some(e) = smart_echo {
            set_beside(&mut self.echoes, n, i, e);
        }
        if let Some(t) = ts {
            set_beside(&mut self.timestamps, n, i, (t, rate_bytes_per_s));
        } else {
            debug_assert_eq!(rate_bytes_per_s, 0, "a rate rides with the timestamp option (WTCP needs it)");
        }
        if let Some(w) = sender_window {
            set_beside(&mut self.sender_windows, n, i, w);
        }
        PacketRef(u32::try_from(i).expect("fewer than 2^32 packets in flight"))
    }

    /// A copy of the packet at `r`. Always inlined: a caller that reads a
    /// few fields of the copy then reads only those slots (the error
    /// model's reading of a frame on every transmission).
    #[inline(always)]
    pub fn get(&self, r: PacketRef) -> Packet {
        let i = r.0 as usize;
        let s = &self.slots[i];
        let has = |f: u8| s.flags & f != 0;
        Packet {
            uid: s.uid,
            flow: s.flow,
            kind: s.kind,
            src: s.src,
            dst: s.dst,
            size_bytes: u32::from(s.size_bytes),
            ecn: s.ecn,
            tcp: TcpHeader {
                seq: s.seq,
                len: u32::from(s.len),
                ack: s.ack,
                wnd_bytes: s.wnd_bytes,
                sack: if has(flag::HAS_SACK) { self.sacks[i] } else { SackBlocks::default() },
                smart_echo: has(flag::HAS_ECHO).then(|| self.echoes[i]),
                eln: has(flag::ELN),
                is_retransmit: has(flag::RETRANSMIT),
                ece: has(flag::ECE),
                cwr: has(flag::CWR),
                fr_request: has(flag::FR_REQUEST),
                sender_window: (s.ctl & CTL_SENDER_WINDOW != 0).then(|| self.sender_windows[i]),
                ts: has(flag::HAS_TS).then(|| self.timestamps[i].0),
                syn: s.ctl & 1 != 0,
                fin: s.ctl & 2 != 0,
                ll_notice: match (s.ctl & CTL_NOTICE) >> 2 {
                    0 => LlNotice::None,
                    1 => LlNotice::Ersn,
                    2 => LlNotice::Eln,
                    _ => LlNotice::Ebsn,
                },
                rate_bytes_per_s: if has(flag::HAS_TS) { self.timestamps[i].1 } else { 0 },
            },
        }
    }

    /// Free `r`'s slot and return its packet.
    #[inline]
    pub fn take(&mut self, r: PacketRef) -> Packet {
        self.free.push(r.0);
        self.get(r)
    }

    /// The tag the packet at `r` was put with (0 if none).
    #[inline]
    pub fn tag(&self, r: PacketRef) -> u32 {
        self.slots[r.0 as usize].tag
    }

    /// Give the packet at `r` a new tag (a packet moved to another hop).
    pub fn set_tag(&mut self, r: PacketRef, tag: u32) {
        self.slots[r.0 as usize].tag = tag;
    }

    /// A router's congestion mark (RFC 3168 Sec. 5): an ECN-capable packet
    /// at `r` becomes CE; false (and unchanged) if it is not ECN-capable.
    pub fn mark_ce(&mut self, r: PacketRef) -> bool {
        let s = &mut self.slots[r.0 as usize];
        match s.ecn {
            Ecn::NotEct => false,
            Ecn::Ect | Ecn::Ce => {
                s.ecn = Ecn::Ce;
                true
            }
        }
    }

    /// Mark the frame at `r` lost to a link outage (it is dropped when it
    /// would have arrived).
    pub fn mark_outage(&mut self, r: PacketRef) {
        self.slots[r.0 as usize].ctl |= CTL_OUTAGE;
    }

    /// Whether the frame at `r` was lost to a link outage.
    #[inline]
    pub fn outage_marked(&self, r: PacketRef) -> bool {
        self.slots[r.0 as usize].ctl & CTL_OUTAGE != 0
    }

    /// Mark every frame of chain `c` lost to a link outage (with the
    /// chain's mark too: it pops as corrupted); how many.
    pub fn chain_mark_outage(&mut self, c: &Chain) -> u32 {
        let mut i = c.head;
        while i != NIL {
            let s = &mut self.slots[i as usize];
            s.ctl |= CTL_OUTAGE | CTL_CHAIN_MARK;
            i = s.next;
        }
        c.len
    }

    /// The connection and cumulative ack of the packet at `r` if it is a
    /// pure ack (what ACK filtering compares), else `None`: one slot read,
    /// not a whole packet.
    #[inline]
    pub fn pure_ack(&self, r: PacketRef) -> Option<(u32, u64)> {
        let s = &self.slots[r.0 as usize];
        (s.kind == PacketKind::Ack && s.len == 0).then_some((s.flow, s.ack))
    }

    /// Append the packet at `r` to chain `c` at `now`, with its arrival
    /// time `at` (no earlier than the tail's), its event `key` (the latest
    /// taken) and `mark`. A packet is in one chain at most, and stays in the
    /// pool until taken. Its own slot is not touched unless it is marked.
    #[inline]
    pub fn chain_push(&mut self, c: &mut Chain, r: PacketRef, now: Time, at: Time, key: u64, mark: bool) {
        let i = r.0 as usize;
        // `put` left `next` NIL and the mark clear: a packet is chained
        // once in its slot's life.
        debug_assert!(
            self.slots[i].next == NIL && self.slots[i].ctl & CTL_CHAIN_MARK == 0 && at >= now,
            "a packet in one chain at most, arriving later"
        );
        if mark {
            self.slots[i].ctl |= CTL_CHAIN_MARK;
        }
        if c.len == 0 {
            c.head = r.0;
        } else {
            let t = c.tail as usize;
            let s = &mut self.slots[t];
            (s.next, s.next_at, s.next_key) = (r.0, at.ns() as u32, key as u32);
            if at.ns() - now.ns() > u64::from(u32::MAX) {
                self.set_aside(t, Due { at, key });
            }
        }
        c.tail = r.0;
        c.len += 1;
    }

    /// The packet chained behind slot `t` arrives `due`, too far ahead for
    /// its time to follow from 32 bits: kept beside the slots.
    #[cold]
    #[inline(never)]
    fn set_aside(&mut self, t: usize, due: Due) {
        self.slots[t].ctl |= CTL_DUE_ASIDE;
        set_beside(&mut self.due_aside, self.slots.len(), t, due);
    }

    /// Take the first packet off chain `c` (which must not be empty) as it
    /// arrives, `now`, when `next_key` is the next unused event key: the
    /// packet, its mark, and the time and key of the packet now first.
    #[inline]
    pub fn chain_pop(&mut self, c: &mut Chain, now: Time, next_key: u64) -> (PacketRef, bool, Option<(Time, u64)>) {
        debug_assert!(c.len > 0, "a chained packet to take");
        // (Empty, the head is NIL and the slot read panics.)
        let r = c.head;
        let s = &self.slots[r as usize];
        let (next, mark) = (s.next, s.ctl & CTL_CHAIN_MARK != 0);
        c.head = next;
        c.len -= 1;
        let following = (next != NIL).then(|| {
            // Unless aside, it joined less than 2^32 ns before it arrives
            // (and so now, when the packet before it arrives, is less than
            // 2^32 ns before its time) and less than 2^32 keys ago.
            let d = if s.ctl & CTL_DUE_ASIDE == 0 { next_due(s, now, next_key) } else { self.due_aside[r as usize] };
            (d.at, d.key)
        });
        (PacketRef(r), mark, following)
    }

    /// Keep in full the arrival of every packet of chain `c` whose key is
    /// below `older` (at `now`, with `next_key` the next unused key): their
    /// keys would no longer follow from 32 bits once 2^32 more are taken.
    /// The simulator calls this on every chain each time 2^30 keys have
    /// been taken, with `older` 2^30 below `next_key`, so that a key in a
    /// slot is always less than 2^31 and one event's keys old. Returns how
    /// many it kept.
    pub fn chain_keep_keys(&mut self, c: &Chain, now: Time, next_key: u64, older: u64) -> usize {
        let mut kept = 0;
        let mut i = c.head;
        while i != NIL {
            let s = self.slots[i as usize];
            if s.next != NIL && s.ctl & CTL_DUE_ASIDE == 0 {
                let due = next_due(&s, now, next_key);
                if due.key < older {
                    self.set_aside(i as usize, due);
                    kept += 1;
                }
            }
            i = s.next;
        }
        kept
    }

    /// Packets stored and not yet taken.
    pub fn len(&self) -> usize {
        self.slots.len() - self.free.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Set entry `i` of a side array of `n` slots, growing it on first use.
fn set_beside<T: Copy + Default>(side: &mut Vec<T>, n: usize, i: usize, v: T) {
    if side.len() < n {
        side.resize(n, T::default());
    }
    side[i] = v;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PacketKind, TcpHeader};

    fn pkt(uid: u64) -> Packet {
        Packet {
            uid,
            flow: 0,
            kind: PacketKind::Data,
            src: 0,
            dst: 1,
            size_bytes: 100,
            ecn: Ecn::NotEct,
            tcp: TcpHeader::default(),
        }
    }

    #[test]
    fn slots_are_reused_last_freed_first() {
        let mut p = PacketPool::new();
        let (a, b) = (p.put(pkt(1)), p.put(pkt(2)));
        assert_eq!((p.get(a).uid, p.get(b).uid), (1, 2));
        assert_eq!(p.take(a).uid, 1);
        assert_eq!(p.len(), 1);
        let c = p.put(pkt(3));
        assert_eq!(c, a, "the slot just freed is the next one used");
        assert_eq!(p.get(b).uid, 2, "other packets are untouched");
        assert_eq!(p.take(b).uid, 2);
        assert_eq!(p.take(c).uid, 3);
        assert!(p.is_empty());
    }

    #[test]
    fn packets_come_back_whole_with_or_without_options() {
        assert_eq!(std::mem::size_of::<Slot>(), 64, "one cache line");
        let mut p = PacketPool::new();
        let mut with = pkt(7);
        with.kind = PacketKind::Ack;
        (with.tcp.ack, with.tcp.wnd_bytes, with.tcp.eln, with.tcp.smart_echo) = (1000, 65535, true, Some(4000));
        assert!(with.tcp.sack.push(2000, 3000) && with.tcp.sack.push(4000, 5000));
        (with.ecn, with.tcp.ece, with.tcp.cwr, with.tcp.fr_request) = (Ecn::Ect, true, true, true);
        (with.tcp.sender_window, with.tcp.ts) = (Some(u16::MAX), Some(Timestamps { val_ns: 5, ecr_ns: 3 }));
        (with.tcp.syn, with.tcp.fin, with.tcp.rate_bytes_per_s) = (true, true, 123_456);
        let r = p.put(with);
        assert_eq!(p.get(r), with);
        assert_eq!(p.take(r), with);
        // The slot is reused by a packet without options: none leak over.
        let plain = pkt(8);
        let r2 = p.put(plain);
        assert_eq!(r2, r);
        assert_eq!(p.take(r2), plain);
        // The LL-ELSN notices share the connection flags' byte.
        for notice in [LlNotice::Ersn, LlNotice::Eln, LlNotice::Ebsn] {
            let mut n = with;
            n.tcp.ll_notice = notice;
            let r = p.put(n);
            assert_eq!(p.take(r), n);
        }
    }

    /// Two chains through one pool come out in their own order, each packet
    /// with its time, key and mark, and the mark neither shows in nor
    /// survives the packet (its LL-ELSN notice shares the byte).
    #[test]
    fn chains_are_fifos_with_times_keys_and_marks() {
        let mut p = PacketPool::new();
        let (mut a, mut b) = (Chain::EMPTY, Chain::EMPTY);
        let mut notice = pkt(0);
        notice.tcp.ll_notice = LlNotice::Ersn;
        let refs: Vec<PacketRef> = (0..6).map(|u| p.put(if u == 2 { notice } else { pkt(u) })).collect();
        // Packet i joins at 10·i ns, to arrive at 100·i, under key 1000 + i.
        for (i, &r) in refs.iter().enumerate() {
            let c = if i % 2 == 0 { &mut a } else { &mut b };
            p.chain_push(c, r, Time(10 * i as u64), Time(100 * i as u64), 1000 + i as u64, i == 2);
        }
        assert_eq!((a.len(), b.len()), (3, 3));
        assert_eq!(p.get(refs[2]).tcp.ll_notice, LlNotice::Ersn, "the mark leaves the notice alone");
        let (r, mark, next) = p.chain_pop(&mut a, Time(0), 1006);
        assert_eq!((r, mark, next), (refs[0], false, Some((Time(200), 1002))));
        let (r, mark, next) = p.chain_pop(&mut a, Time(200), 1006);
        assert_eq!((r, mark, next), (refs[2], true, Some((Time(400), 1004))));
        assert_eq!(p.take(r), notice, "the packet comes back as it went in");
        let again = p.put(pkt(9));
        p.chain_push(&mut a, again, Time(300), Time(500), 1009, false);
        assert_eq!(p.chain_pop(&mut a, Time(400), 1010), (refs[4], false, Some((Time(500), 1009))));
        assert_eq!(p.chain_pop(&mut a, Time(500), 1010), (again, false, None), "a reused slot keeps no mark");
        assert!(a.is_empty());
        for i in [1, 3, 5] {
            let next = (i < 5).then(|| (Time(100 * (i as u64 + 2)), 1000 + i as u64 + 2));
            assert_eq!(p.chain_pop(&mut b, Time(100 * i as u64), 1010), (refs[i], false, next));
        }
        assert!(b.is_empty());
    }

    /// The slot keeps the low 32 bits of the next packet's time and key:
    /// the full values come back across a wrap of those bits, and a packet
    /// that arrives 2^32 ns or more after it joined (a very long delay) is
    /// kept in full beside the slots.
    #[test]
    fn chained_times_and_keys_come_back_across_32_bit_wraps_and_long_delays() {
        let mut p = PacketPool::new();
        let mut c = Chain::EMPTY;
        let wrap = 1u64 << 32;
        let refs: Vec<PacketRef> = (0..4).map(|u| p.put(pkt(u))).collect();
        // Joins just before a wrap of the time's and the key's low words,
        // arrivals just after; the third with a delay of 2^32 ns + 5, the
        // fourth of 2^40 ns.
        let (now, key) = (Time(3 * wrap - 10), 7 * wrap - 2);
        p.chain_push(&mut c, refs[0], now, Time(3 * wrap - 5), key, false);
        p.chain_push(&mut c, refs[1], now, Time(3 * wrap + 20), key + 1, false);
        p.chain_push(&mut c, refs[2], now, Time(4 * wrap - 5), key + 2, true);
        p.chain_push(&mut c, refs[3], Time(4 * wrap - 6), Time(4 * wrap - 6 + (1 << 40)), key + 3, false);
        let next_key = key + 3 + 70_000;
        assert_eq!(
            p.chain_pop(&mut c, Time(3 * wrap - 5), next_key),
            (refs[0], false, Some((Time(3 * wrap + 20), key + 1)))
        );
        assert_eq!(
            p.chain_pop(&mut c, Time(3 * wrap + 20), next_key),
            (refs[1], false, Some((Time(4 * wrap - 5), key + 2)))
        );
        let far = Time(4 * wrap - 6 + (1 << 40));
        assert_eq!(p.chain_pop(&mut c, Time(4 * wrap - 5), next_key), (refs[2], true, Some((far, key + 3))));
        assert_eq!(p.chain_pop(&mut c, far, next_key), (refs[3], false, None));
        for &r in &refs {
            p.take(r);
        }
        // A slot reused after holding a long delay's arrival keeps none of it.
        let (r, s) = (p.put(pkt(8)), p.put(pkt(9)));
        assert_eq!(r, refs[3], "reused, last freed first");
        p.chain_push(&mut c, r, Time(0), Time(10), 1, false);
        p.chain_push(&mut c, s, Time(0), Time(20), 2, false);
        assert_eq!(p.chain_pop(&mut c, Time(10), 3), (r, false, Some((Time(20), 2))));
    }

    /// A packet that waits while 2^32 keys are taken has its key kept in
    /// full by the passes the simulator makes every 2^30 keys (the first
    /// pass keeps both later packets', the others find nothing left to
    /// keep); without them its key would come back 2^32 too high.
    #[test]
    fn a_key_older_than_the_passes_is_kept_in_full() {
        let mut p = PacketPool::new();
        let mut c = Chain::EMPTY;
        let refs: Vec<PacketRef> = (0..3).map(|u| p.put(pkt(u))).collect();
        // Short delays: nothing is kept in full when it joins.
        for (i, &r) in refs.iter().enumerate() {
            p.chain_push(&mut c, r, Time(0), Time(10 + i as u64), 100 + i as u64, false);
        }
        let every = 1u64 << 30;
        let mut next_key = 103;
        let mut kept = Vec::new();
        for _ in 0..5 {
            next_key += every;
            kept.push(p.chain_keep_keys(&c, Time(1), next_key, next_key - every));
        }
        assert_eq!(kept, [2, 0, 0, 0, 0]);
        assert!(next_key - 101 > 1 << 32);
        assert_eq!(p.chain_pop(&mut c, Time(10), next_key), (refs[0], false, Some((Time(11), 101))));
        assert_eq!(p.chain_pop(&mut c, Time(11), next_key), (refs[1], false, Some((Time(12), 102))));
        // Without a pass the low word alone names a key 2^32 later.
        let mut d = Chain::EMPTY;
        let (x, y) = (p.put(pkt(5)), p.put(pkt(6)));
        p.chain_push(&mut d, x, Time(0), Time(5), 100, false);
        p.chain_push(&mut d, y, Time(0), Time(6), 101, false);
        let (_, _, next) = p.chain_pop(&mut d, Time(5), 101 + (5 << 30));
        assert_eq!(next, Some((Time(6), 101 + (4 << 30))));
    }

    #[test]
    fn pure_acks_show_their_connection_and_ack() {
        let mut p = PacketPool::new();
        let data = p.put(pkt(1));
        let mut a = pkt(2);
        (a.kind, a.flow, a.tcp.ack) = (PacketKind::Ack, 7, 5000);
        let ack = p.put(a);
        assert_eq!(p.pure_ack(data), None);
        assert_eq!(p.pure_ack(ack), Some((7, 5000)));
    }

    #[test]
    fn a_tag_comes_back_with_its_packet() {
        let mut p = PacketPool::new();
        let a = p.put_tagged(pkt(1), 7);
        let b = p.put_tagged(pkt(2), u32::MAX);
        assert_eq!((p.tag(b), p.take(b)), (u32::MAX, pkt(2)));
        let c = p.put(pkt(3));
        assert_eq!(c, b, "the slot is reused");
        assert_eq!((p.tag(c), p.take(c)), (0, pkt(3)), "an untagged packet has tag 0");
        assert_eq!((p.tag(a), p.take(a)), (7, pkt(1)));
    }

    #[test]
    fn only_ecn_capable_packets_take_a_mark() {
        let mut p = PacketPool::new();
        let plain = p.put(pkt(1));
        assert!(!p.mark_ce(plain));
        assert_eq!(p.get(plain).ecn, Ecn::NotEct);
        let mut e = pkt(2);
        e.ecn = Ecn::Ect;
        let capable = p.put(e);
        assert!(p.mark_ce(capable));
        assert_eq!(p.get(capable).ecn, Ecn::Ce);
    }
}
