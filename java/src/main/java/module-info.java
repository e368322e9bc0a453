// SPDX-License-Identifier: MIT OR Apache-2.0
/**
 * shakerand for Java: {@link org.shakerand.ShakeRandom}, a {@code SecureRandom} over the
 * shakerand C core that threads share without taking its monitor, and the JCA provider
 * {@link org.shakerand.ShakeRandProvider}. The native
 * library is loaded by this module: on JDK 22 and later run with
 * {@code --enable-native-access=org.shakerand} when it is on the module path.
 */
module org.shakerand {
    exports org.shakerand;

    // CRaC's hooks when the application has org.crac (CracHooks); optional.
    requires static org.crac;

    provides java.security.Provider with org.shakerand.ShakeRandProvider;
}
