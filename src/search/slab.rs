//! A large table in one allocation of zeroed memory, backed by huge pages
//! where the operating system gives them on request (Linux's transparent
//! huge pages in "madvise" mode): tables probed at random addresses spend
//! most of their time on address-translation misses otherwise.

use std::alloc::{self, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// Huge pages are 2 MB on the machines this runs on.
const HUGE_PAGE: usize = 2 << 20;

/// The most of a slab [`Slab::make_resident`] brings in.
pub const RESIDENT_AT_ONCE_MAX: usize = 1 << 30;

/// Starts loading the cache line at `ptr`: a hint, so any address will do
/// (nothing is read through it).
#[inline(always)]
pub fn prefetch<T>(ptr: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and reads nothing into the program.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(ptr.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = ptr;
}

/// A fixed-size array of `T` in zeroed memory, asking the system for huge
/// pages where it can: the solver's table.
pub struct Slab<T: Copy> {
    ptr: NonNull<T>,
    len: usize,
    layout: Layout,
}

// SAFETY: a Slab owns its elements like a Vec does.
unsafe impl<T: Copy + Send> Send for Slab<T> {}
// SAFETY: shared access only reads, as with a Vec.
unsafe impl<T: Copy + Sync> Sync for Slab<T> {}

impl<T: Copy> Slab<T> {
    /// `len` (at least 1) elements of zeroed memory, which the system maps
    /// lazily: untouched parts take no resident memory. An error, not an
    /// abort, when the memory cannot be had.
    ///
    /// # Safety
    /// All-zero bytes must be a valid `T`.
    pub unsafe fn zeroed(len: usize) -> Result<Self, String> {
        let len = len.max(1);
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .ok_or("table too large")?
            .max(1);
        // Natural alignment: the allocator then maps large tables straight
        // from the system, zeroed lazily (a stricter alignment would make
        // it zero them by hand, touching every page).
        let layout =
            Layout::from_size_align(bytes, std::mem::align_of::<T>()).map_err(|e| e.to_string())?;
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { alloc::alloc_zeroed(layout) }.cast::<T>();
        let ptr = NonNull::new(raw).ok_or_else(|| format!("cannot allocate {bytes} bytes"))?;
        #[cfg(target_os = "linux")]
        if bytes >= HUGE_PAGE {
            // The whole pages inside the allocation; huge pages back the
            // aligned 2 MB stretches of them.
            const PAGE: usize = 4096;
            let start = (raw as usize).next_multiple_of(PAGE);
            let end = (raw as usize + bytes) / PAGE * PAGE;
            // SAFETY: the range lies inside the allocation just made; the
            // advice is a hint that cannot change its contents.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
        Ok(Slab { ptr, len, layout })
    }
}

impl<T: Copy> Slab<T> {
    /// The first element, for callers that reach the elements through
    /// another view of the same layout (atomics).
    pub fn as_ptr(&self) -> *const T {
        self.ptr.as_ptr()
    }

    /// Brings the pages of the first [`RESIDENT_AT_ONCE_MAX`] bytes into
    /// memory, so that later accesses find them resident instead of
    /// faulting them in one at a time. Beyond that the system's time to
    /// give memory (seconds for a few gigabytes, when it must gather huge
    /// pages) would outweigh what a table that large is for: long
    /// searches, which the rest's faults hardly slow.
    pub fn make_resident(&mut self) {
        const PAGE: usize = 4096;
        let base = self.ptr.as_ptr().cast::<u8>();
        let size = self.layout.size().min(RESIDENT_AT_ONCE_MAX);
        #[cfg(target_os = "linux")]
        {
            // One call populates every whole page, huge ones included, far
            // faster than faulting them in one by one (reading first maps
            // the shared zero page, which the write must then replace).
            // Kernels before 5.14 refuse it: then touch each page.
            let start = (base as usize).next_multiple_of(PAGE);
            let end = (base as usize + size) / PAGE * PAGE;
            // SAFETY: the range lies inside the allocation; populating
            // pages changes no byte of their contents.
            if end <= start
                || unsafe {
                    libc::madvise(
                        start as *mut libc::c_void,
                        end - start,
                        libc::MADV_POPULATE_WRITE,
                    )
                } == 0
            {
                return;
            }
        }
        for offset in (0..size).step_by(PAGE) {
            // SAFETY: inside the allocation; writing back the byte read
            // changes nothing but residency.
            unsafe {
                let byte = base.add(offset);
                std::ptr::write_volatile(byte, std::ptr::read_volatile(byte));
            }
        }
    }
}

impl<T: Copy> Deref for Slab<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `len` initialised elements live at `ptr`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> DerefMut for Slab<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as for `deref`, and `&mut self` is unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> Drop for Slab<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { alloc::dealloc(self.ptr.as_ptr().cast(), self.layout) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroed_and_writable() {
        for len in [0, 1, 1000, (3 << 20) / 8] {
            // SAFETY: zero is a valid u64.
            let mut slab = unsafe { Slab::<u64>::zeroed(len) }.unwrap();
            assert_eq!(slab.len(), len.max(1));
            assert!(slab.iter().all(|&x| x == 0));
            let last = slab.len() - 1;
            slab[last] = 9;
            slab.make_resident();
            assert_eq!(slab[last], 9);
            assert!(slab[..last].iter().all(|&x| x == 0));
        }
    }

    /// Every whole page of the slab is in memory after `make_resident`,
    /// before anything has been read or written.
    #[cfg(target_os = "linux")]
    #[test]
    fn make_resident_brings_in_every_page() {
        const PAGE: usize = 4096;
        // SAFETY: zero is a valid u64.
        let mut slab = unsafe { Slab::<u64>::zeroed((8 << 20) / 8) }.unwrap();
        let resident = |slab: &Slab<u64>| -> usize {
            let start = (slab.as_ptr() as usize).next_multiple_of(PAGE);
            let end = (slab.as_ptr() as usize + slab.len() * 8) / PAGE * PAGE;
            let mut flags = vec![0u8; (end - start) / PAGE];
            // SAFETY: the range is inside the slab's allocation and
            // `flags` has a byte per page of it.
            let ok = unsafe {
                libc::mincore(start as *mut libc::c_void, end - start, flags.as_mut_ptr())
            };
            assert_eq!(ok, 0);
            flags.iter().filter(|&&f| f & 1 != 0).count() * 100 / flags.len()
        };
        slab.make_resident();
        assert_eq!(resident(&slab), 100, "per cent of pages resident");
        assert!(slab.iter().all(|&x| x == 0));
    }
}
