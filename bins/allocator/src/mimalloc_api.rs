//! Calls into mimalloc's C API: the global allocator's plain blocks and the collection of
//! a thread's heap. The only module of the workspace that allows `unsafe`.

use std::{
    alloc::{GlobalAlloc, Layout},
    ffi::c_void,
};

use libmimalloc_sys::{mi_collect, mi_free, mi_malloc, mi_zalloc};
use mimalloc::MiMalloc;

/// mimalloc, asked for a plain block (`mi_malloc`) wherever one can have the layout's
/// alignment, where the `mimalloc` crate asks for an aligned block every time: mimalloc's
/// aligned entry tests the alignment on each call before it allocates, and sends a block
/// over 1 KiB through a generic aligned path of its own as well (docs/performance.md,
/// "Plain blocks from mimalloc").
///
/// A plain block is kept only when its address has the alignment, so soundness rests
/// on that test, not on mimalloc's size classes. A block without it (one smaller than
/// its alignment, which no Rust type asks for, can come from a class of 8-byte blocks)
/// is freed and the aligned entry asked instead. Reallocation and freeing are the
/// `mimalloc` crate's.
pub(crate) struct PlainBlocks;

/// The largest alignment a plain block is tried for: mimalloc's `MI_MAX_ALIGN_SIZE`.
const PLAIN_ALIGN_MAX: usize = 16;

/// A plain block from `plain` (`mi_malloc` or `mi_zalloc`) when the layout's alignment
/// allows one and the block has it (null included: a failed allocation); else, after
/// handing back a block without the alignment, the block `aligned` makes.
#[inline(always)]
fn plain_or(
    layout: Layout,
    plain: unsafe extern "C" fn(usize) -> *mut c_void,
    aligned: impl FnOnce() -> *mut u8,
) -> *mut u8 {
    if layout.align() <= PLAIN_ALIGN_MAX {
        // SAFETY: any size is valid for `mi_malloc` and `mi_zalloc`.
        let block = unsafe { plain(layout.size()) }.cast::<u8>();
        if block.addr() & (layout.align() - 1) == 0 {
            return block;
        }
        // SAFETY: `block` came from mimalloc and is not null (null is aligned).
        unsafe { mi_free(block.cast()) };
    }
    aligned()
}

// SAFETY: every block returned is null or has at least `layout.size()` bytes at
// `layout.align()` (tested before a plain block is returned, else the `mimalloc`
// crate's aligned allocation); every block is one of mimalloc's, which `mi_free`
// (the crate's `dealloc`) and `mi_realloc_aligned` (its `realloc`) take whichever
// entry made it.
unsafe impl GlobalAlloc for PlainBlocks {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is passed on unchanged.
        plain_or(layout, mi_malloc, || unsafe { MiMalloc.alloc(layout) })
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc_zeroed` is passed on unchanged.
        plain_or(layout, mi_zalloc, || unsafe { MiMalloc.alloc_zeroed(layout) })
    }

    #[inline]
    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: `block` is one of mimalloc's (above), as `MiMalloc` needs.
        unsafe { MiMalloc.dealloc(block, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `block` is one of mimalloc's (above), as `MiMalloc` needs.
        unsafe { MiMalloc.realloc(block, layout, new_size) }
    }
}

/// Collects the calling thread's heap, forced: frees that other threads made into its
/// pages are taken in, emptied pages go back to their segments, and the memory they
/// free is handed back to the system now, whatever its purge delay (the delay is for
/// a working server: memory freed mid-burst is soon used again). A walk over the
/// heap's pages: for idle moments, not for every request.
pub fn collect() {
    // SAFETY: `mi_collect` takes a flag and no pointer; it works on the calling
    // thread's own heap, which is mimalloc's global allocator here.
    unsafe { mi_collect(true) }
}

#[cfg(test)]
mod tests;
