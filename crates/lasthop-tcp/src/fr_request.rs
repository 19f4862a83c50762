//! Fast-retransmit request (seed 001 Sec. 6.3, also Secs. 6.1, 6.2): with
//! ACC or ACK filtering the sender cannot count duplicate acks (fewer are
//! sent, some are filtered), so "once the receiver has seen a threshold
//! number of out-of-order packets, it marks subsequent dupacks" and "the
//! sender fast-retransmits on a marked ack".
//!
//! Receiver side here: out-of-order segments are counted since the
//! cumulative ack last advanced; once the count reaches the threshold
//! (lost from the seed text; 3 \[R\], the dupack threshold of RFC 5681) every
//! duplicate ack carries the request, the ack of the threshold-th segment
//! included, so the sender retransmits no later than a counting sender that
//! saw every duplicate. Sender side ([`crate::sender`],
//! [`crate::recovery::DupAck::on_requested_dupack`]): the first marked
//! duplicate ack starts a fast retransmit whatever the count; the count
//! remains as a fallback (a marked ack can be lost too). The design is not
//! in ns-2 or the testbed \[T\]; this is its reading.

/// The receiver's count of out-of-order segments above the hole.
#[derive(Clone, Copy, Debug)]
pub struct FrRequestMarker {
    threshold: u32,
    out_of_order: u32,
}

impl FrRequestMarker {
    pub fn new(threshold: u32) -> FrRequestMarker {
        FrRequestMarker { threshold: threshold.max(1), out_of_order: 0 }
    }

    /// A segment arrived above the cumulative ack.
    pub fn on_out_of_order(&mut self) {
        self.out_of_order = self.out_of_order.saturating_add(1);
    }

    /// The cumulative ack advanced: the count starts again.
    pub fn on_advance(&mut self) {
        self.out_of_order = 0;
    }

    /// Whether a duplicate ack sent now carries the request.
    pub fn requested(&self) -> bool {
        self.out_of_order >= self.threshold
    }
}
