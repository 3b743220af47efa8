//! The plain-block allocator holds `GlobalAlloc`'s contract for any layout.

use std::alloc::{GlobalAlloc, Layout};

use proptest::prelude::*;

use super::PlainBlocks;

/// A layout of 1 to 5,000 bytes at an alignment of 1 to 4,096.
fn layouts() -> impl Strategy<Value = Layout> {
    (1usize..5_000, 0u32..13)
        .prop_map(|(size, shift)| Layout::from_size_align(size, 1 << shift).unwrap())
}

/// Whether `block` is at `layout`'s alignment.
fn at_alignment(block: *mut u8, layout: Layout) -> bool {
    block.addr().is_multiple_of(layout.align())
}

proptest! {
    /// Every block, plain or zeroed, is at the layout's alignment and holds its size
    /// (written whole and read back); a zeroed one reads zero; a reallocation keeps the
    /// bytes both sizes share and the alignment.
    #[test]
    fn blocks_have_the_layout(layout in layouts(), new_size in 1usize..9_000, fill in any::<u8>()) {
        // SAFETY: `layout` has a non-zero size; each block is written only within its
        // size, freed once, with the layout it was made with.
        unsafe {
            let zeroed = PlainBlocks.alloc_zeroed(layout);
            prop_assert!(!zeroed.is_null() && at_alignment(zeroed, layout));
            prop_assert!(std::slice::from_raw_parts(zeroed, layout.size()).iter().all(|&b| b == 0));
            PlainBlocks.dealloc(zeroed, layout);

            let block = PlainBlocks.alloc(layout);
            prop_assert!(!block.is_null() && at_alignment(block, layout));
            block.write_bytes(fill, layout.size());
            let moved = PlainBlocks.realloc(block, layout, new_size);
            prop_assert!(!moved.is_null() && at_alignment(moved, layout));
            let kept = std::slice::from_raw_parts(moved, layout.size().min(new_size));
            prop_assert!(kept.iter().all(|&b| b == fill));
            PlainBlocks.dealloc(moved, Layout::from_size_align(new_size, layout.align()).unwrap());
        }
    }
}

/// A block smaller than its alignment (a `Layout` allows one, a type never has one) comes
/// from a size class whose blocks are only at 8 bytes: the test of the address sends it
/// to the aligned entry.
#[test]
fn small_blocks_at_sixteen_bytes_are_aligned() {
    let layout = Layout::from_size_align(8, 16).unwrap();
    // SAFETY: as in `blocks_have_the_layout`; all blocks are freed after.
    unsafe {
        let blocks: Vec<*mut u8> = (0..64).map(|_| PlainBlocks.alloc(layout)).collect();
        assert!(blocks.iter().all(|&block| !block.is_null() && at_alignment(block, layout)));
        for block in blocks {
            PlainBlocks.dealloc(block, layout);
        }
    }
}
