// Invite links: written as paths by the page, shown whole. Copy buttons copy what they name:
// an input's value or an element's text (an invite code).
for (const input of document.querySelectorAll("[data-invite] input")) {
  input.value = new URL(input.value, window.location.href).href;
}
for (const button of document.querySelectorAll("[data-copy]")) {
  button.addEventListener("click", async () => {
    const source = document.getElementById(button.dataset.copy);
    const text = source instanceof HTMLInputElement ? source.value : source.textContent.trim();
    const label = button.textContent;
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // No clipboard access: leave it selected for the reader to copy.
      if (source instanceof HTMLInputElement) source.select();
      else window.getSelection().selectAllChildren(source);
      return;
    }
    button.textContent = button.dataset.copied;
    setTimeout(() => { button.textContent = label; }, 2000);
  });
}
