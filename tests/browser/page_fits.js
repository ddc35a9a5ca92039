// Nothing on the page is wider (or, on a phone, taller) than the screen; names are not cut.
() => ({
  wide: document.documentElement.scrollWidth - window.innerWidth,
  tall: document.documentElement.scrollHeight - window.innerHeight,
  cutNames: [...document.querySelectorAll(".plate-name")]
    .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
    .map((e) => e.textContent),
  plateBottom: document.querySelector("#my-plate").getBoundingClientRect().bottom - window.innerHeight,
})
