//! The ERSN marks of an LL-ELSN sender (seed 004 Sec. 3.1): the segments
//! its link layer said it is still retrying. A sender neither fast-
//! retransmits nor cuts its window for a marked segment on duplicate acks,
//! and defers a timeout of a marked oldest segment a bounded number of
//! times. Its own module because the responses that consult it (ESACK,
//! LHP) and the LL-ELSN sender that holds it would otherwise import each
//! other.

/// Segments the link layer is retransmitting (ERSN marks), sorted.
#[derive(Clone, Debug, Default)]
pub struct ErsnMarks {
    marks: Vec<u64>,
    /// Timeouts deferred for the current oldest outstanding segment.
    deferrals: u32,
}

impl ErsnMarks {
    pub const fn new() -> ErsnMarks {
        ErsnMarks { marks: Vec::new(), deferrals: 0 }
    }
    pub fn mark(&mut self, seq: u64) {
        if let Err(i) = self.marks.binary_search(&seq) {
            self.marks.insert(i, seq);
        }
    }
    pub fn is_marked(&self, seq: u64) -> bool {
        self.marks.binary_search(&seq).is_ok()
    }
    /// True if a marked segment starts in [start, end).
    pub fn any_in(&self, start: u64, end: u64) -> bool {
        let i = self.marks.partition_point(|&m| m < start);
        self.marks.get(i).is_some_and(|&m| m < end)
    }
    /// The marked segments' first bytes, sorted.
    pub fn marks(&self) -> &[u64] {
        &self.marks
    }
    pub fn clear(&mut self, seq: u64) {
        if let Ok(i) = self.marks.binary_search(&seq) {
            self.marks.remove(i);
        }
    }
    /// An ack: marks below `snd_una` or SACKed clear; a new `snd_una`
    /// starts a new deferral budget.
    pub fn on_ack(&mut self, snd_una: u64, advanced: bool, is_sacked: impl Fn(u64) -> bool) {
        self.marks.retain(|&s| s >= snd_una && !is_sacked(s));
        if advanced {
            self.deferrals = 0;
        }
    }
    /// The timer expired with `snd_una` outstanding: true if it is to be
    /// deferred (marked and within the bound), counting the deferral.
    pub fn defer(&mut self, snd_una: u64, max_deferrals: u32) -> bool {
        if self.is_marked(snd_una) && self.deferrals < max_deferrals {
            self.deferrals += 1;
            return true;
        }
        false
    }
    /// A timeout fired: every mark refers to a transmission now abandoned.
    pub fn on_timeout(&mut self) {
        self.marks.clear();
        self.deferrals = 0;
    }
}
