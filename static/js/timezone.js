// Sign-up: the browser's time zone goes with the form, so times are shown in it.
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
for (const input of document.querySelectorAll('input[name="timezone"][type="hidden"]')) {
  if (!input.value) input.value = zone;
}
