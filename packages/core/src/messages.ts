// Every message a person reads, word for word from the spec (accounts-admin-fees §5/§8,
// reports-payouts-checkout §5/§8). Forms and the server both import from here.

export const M = {
  // Profile (accounts §5)
  firstNameRequired: 'The First Name field is required.',
  lastNameRequired: 'The Last Name field is required.',
  invalidFormat: 'Invalid format.',
  pictureType: 'Invalid file extention. Only jpg, jpeg, and png files are accepted.',
  pictureSize: 'File size must be less than 5MB',
  phoneIncomplete: 'Please enter complete phone number',
  inputValidationError: 'Input Validation Error. Please fix the errors on the inputs first.',
  birthDateRange: 'Birth date must be between 100 years ago and yesterday.',
  zipMax: 'Zip code must be at most 5 characters.',

  // Change password
  currentPasswordRequired: 'The current password field is required.',
  newPasswordRequired: 'The new password field is required.',
  confirmPasswordRequired: 'The confirm password field is required.',
  newPasswordMismatch: 'new password did not match',

  // Sign-up
  validEmail: 'Please enter a valid email.',
  passwordRequired: 'Please enter your password.',
  passwordMin: 'Password must be at least 8 characters.',
  passwordComplexity:
    'Password must contain at least one uppercase, one lowercase, one number and one special character.',
  passwordsMustMatch: 'Passwords must match',
  confirmPasswordEnter: 'Please enter confirm password.',
  firstNameAlpha: 'First Name must contain only alphabets.',
  lastNameAlpha: 'Last Name must contain only alphabets.',
  stateAlpha: 'State must contain only alphabets.',
  invalidNumber: 'Invalid number.',

  // New tenant
  emailRequired: 'Email is required.',
  emailFormat: 'Entered value does not match email format',
  tenantNameRequired: 'Tenant name is required.',
  tenantNameFormat: 'Tenant name must not have trailing spaces or special characters except hyphens.',
  phoneRequired: 'Phone number is required.',
  phoneCorrect: 'Please enter correct phone number',
  urlRequired: 'URL is required.',
  urlNoSpaces: 'URL must not contain spaces.',
  subjectRequired: 'Subject is required.',
  messageRequired: 'Message is required.',
  noTrailingSpaces: 'Must not have trailing spaces.',
  fieldRequired: 'This field is required',

  // Policy
  policyIdRequired: 'Policy ID is Required',
  policyIdFormat: "Policy ID must be lowercase and alphanumeric. Optional delimiter: '-'",
  policyDetailsRequired: 'Policy details cannot be blank.',

  // Surcharge rule
  ruleNameRequired: 'Surcharge Rule Name is Required',
  ruleNameTrailing: 'Surcharge Rule Name must not contain trailing spaces.',
  serviceFeeRequired: 'Service Fee is Required',
  invalidValue: 'Invalid value.',

  // Settings
  donationChargeRequired: 'Donation Charge is required',
  taxRateRequired: 'Tax rate is required.',
  chargeCashRequired: 'Charge Cash Order is required.',
  chargeBoxOfficeRequired: 'Charge Box Office is required.',
  processingFeeRequired: 'Processing Fee is required.',
  platformFeeRequired: 'Platform Fee is required.',
  complimentaryLimited: 'Please Specify a Limited Quantity',

  // Template
  templateName: 'Please enter template name',
  templateDescription: 'Please enter description',
  templateThumbnail: 'Please add template thumbnail',
  templateZip: 'Please select a ZIP file',
  templateImageSize: 'Image size must not be greater than 20MB.',
  templateImageType: 'Please select a valid image file.',

  // Charity
  charityName: 'Please enter charity name',

  tenantIdRequired: 'Tenant ID is required',

  // Accounts toasts (accounts §8)
  invalid: 'Invalid.',
  error: 'Error.',
  failedUpdatingData: 'Failed updating data.',
  success: 'Success.',
  successfullyUpdated: 'Successfully updated',
  profileUpdated: 'User Profile updated successfully',
  linkAuthFailedTitle: 'Failed to authenticate user',
  linkAuthFailedBody: 'Please check your credentials and try again',
  linkFailedBody:
    'Please check your invite link and try again. If this error continues please contact the person who sent you this link for more info.',
  registerFailedTitle: 'Failed to Register',
  registerFailedBody: 'Please check your registration details or contact your administrator for support',
  registerSuccess: 'Registration Succesful',
  inviteFailedTitle: 'Invite Verification Failed',
  inviteFailedBody: 'Please check the invite link sent to your email or contact your administrator',
  invalidSessionTitle: 'Invalid user session',
  invalidSessionBody: 'Please login first',

  // Checkout fields (reports-payouts-checkout §5)
  checkoutEmailRequired: 'Email field is required.',
  mobileRequired: 'Mobile number field is required.',
  addressRequired: 'Address field is required.',
  cityRequired: 'The city field is required.',
  stateRequired: 'The State field is required.',
  zipRequired: 'The Zip code field is required.',
  zipDigits: 'Zip code must contain only numbers.',
  countryRequired: 'Country field is required',
  discountRequired: 'Discount is required.',

  // Server-side account messages of our own (spec silent; see docs/decisions.md)
  signInFailed: 'Invalid email or password.',
  tooManyRequests: 'Too many attempts. Please wait a minute and try again.',
  invalidCode: 'The code is invalid or has expired.',
  notSignedIn: 'Please login first',
  forbidden: 'You do not have access to this.',
  notFound: 'Not found.',
  csrf: 'Your session could not be verified. Please reload the page and try again.',
  signupInviteOnly: 'Sign-up here is by invitation only.',
  wrongPassword: 'The current password is incorrect.',
  codeSent: 'If an account exists for that email, we have sent it a code.',
} as const;

export type MessageKey = keyof typeof M;
