// Invite links: written as paths by the page, shown whole; copy buttons copy them.
for (const input of document.querySelectorAll("[data-invite] input")) {
  input.value = new URL(input.value, window.location.href).href;
}
for (const button of document.querySelectorAll("[data-copy]")) {
  button.addEventListener("click", async () => {
    const input = document.getElementById(button.dataset.copy);
    const label = button.textContent;
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      input.select(); // no clipboard access: leave it selected for the reader to copy
      return;
    }
    button.textContent = button.dataset.copied;
    setTimeout(() => { button.textContent = label; }, 2000);
  });
}
